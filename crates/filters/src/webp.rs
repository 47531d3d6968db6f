//! The WEBP filter (format_spec/filters/webp.md; filter type 18), as the
//! engine runs it (tiledb/sm/filter/webp_filter.cc):
//!
//! * the tile is an image: `y_extent` rows of `x_extent` bytes, each row
//!   `x_extent / pixel_depth` pixels of RGB, BGR (depth 3), RGBA or BGRA
//!   (depth 4) values, per the `input_format` option; the extents are the
//!   tile extents of the array's two dimensions (`ArraySchema::check_webp_filter`);
//! * the engine turns tile chunking off for pipelines with WEBP
//!   (`use_tile_chunking`), so a tile is one chunk and its one data part is
//!   one image;
//! * forward, every data part becomes one WebP file (`WebPEncodeLossless*`
//!   or, when `lossless` is 0, the lossy `WebPEncode*` with `quality`);
//!   the chunk metadata is `u32` number of parts then one `u32` encoded
//!   size per part, followed by the input metadata, passed on;
//! * backward, each part is decoded (`WebPDecodeRGB`/`BGR`/`RGBA`/`BGRA`:
//!   the decoder ignores the extents) into packed rows of the input format,
//!   and the metadata after this filter's own is handed on.
//!
//! Decoding uses `image_webp` (lossless and lossy). Encoding is lossless
//! only: `image_webp` has no lossy encoder. Built without the `webp`
//! feature, the filter's options still decode but running it is an error
//! ([`FilterError::needs_feature`]).

#[cfg(feature = "webp")]
use image_webp::{ColorType, WebPDecoder, WebPEncoder};

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::{
    decode, encode, Datatype, Filter, FilterOptions, Record, WebpChunkMetadata, WebpInputFormat,
    WebpOptions,
};

const NAME: &str = "WEBP";

/// The codec for a WEBP filter with its options.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    match &filter.filter_options {
        FilterOptions::Webp(opts) => Ok(Box::new(Webp::from_options(opts))),
        _ => Err(FilterError::new(NAME, "the filter has no WEBP options")),
    }
}

/// The WEBP filter with its options.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Webp {
    /// Lossy encoding quality, 0 to 100.
    pub quality: f32,
    /// Layout of the pixels: RGB, BGR, RGBA or BGRA.
    pub input_format: WebpInputFormat,
    /// Whether tiles are encoded lossless.
    pub lossless: bool,
    /// Rows of a tile.
    pub y_extent: u16,
    /// Bytes of a row (pixels times pixel depth).
    pub x_extent: u16,
}

/// The channel layout of the filter's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Rgb,
    Bgr,
    Rgba,
    Bgra,
}

impl Layout {
    fn depth(self) -> usize {
        match self {
            Layout::Rgb | Layout::Bgr => 3,
            Layout::Rgba | Layout::Bgra => 4,
        }
    }

    fn has_alpha(self) -> bool {
        self.depth() == 4
    }

    fn swapped(self) -> bool {
        matches!(self, Layout::Bgr | Layout::Bgra)
    }
}

/// Swaps the first and third value of every pixel (RGB <-> BGR).
fn swap_red_blue(bytes: &mut [u8], depth: usize) {
    for px in bytes.chunks_exact_mut(depth) {
        px.swap(0, 2);
    }
}

impl Webp {
    /// The filter with the options a pipeline stores.
    pub fn from_options(o: &WebpOptions) -> Self {
        Webp {
            quality: o.quality,
            input_format: o.input_format,
            lossless: o.lossless != 0,
            y_extent: o.y_extent,
            x_extent: o.x_extent,
        }
    }

    fn layout(&self) -> Result<Layout, FilterError> {
        match self.input_format {
            WebpInputFormat::Rgb => Ok(Layout::Rgb),
            WebpInputFormat::Bgr => Ok(Layout::Bgr),
            WebpInputFormat::Rgba => Ok(Layout::Rgba),
            WebpInputFormat::Bgra => Ok(Layout::Bgra),
            WebpInputFormat::None => Err(FilterError::new(
                NAME,
                "Filter option TILEDB_FILTER_WEBP_FORMAT must be set",
            )),
            other => Err(FilterError::new(
                NAME,
                format!(
                    "Filter option TILEDB_FILTER_WEBP_FORMAT is invalid ({})",
                    other.value()
                ),
            )),
        }
    }

    /// Encodes one image of `y_extent` rows of `x_extent` bytes.
    fn encode(&self, layout: Layout, part: &[u8]) -> Result<Vec<u8>, FilterError> {
        if !self.lossless {
            return Err(FilterError::new(
                NAME,
                "lossy WEBP encoding is not supported",
            ));
        }
        let depth = layout.depth();
        let (rows, stride) = (usize::from(self.y_extent), usize::from(self.x_extent));
        if stride % depth != 0 {
            return Err(FilterError::new(
                NAME,
                format!(
                    "an x extent of {stride} bytes is not a whole number of {depth}-byte pixels"
                ),
            ));
        }
        let width = stride / depth;
        if rows == 0 || width == 0 || rows > 16383 || width > 16383 {
            return Err(FilterError::new(
                NAME,
                format!("a {width} x {rows} pixel image: WebP takes 1 to 16383 pixels a side"),
            ));
        }
        if part.len() != rows * stride {
            return Err(FilterError::new(
                NAME,
                format!(
                    "a part of {} bytes is not an image of {rows} rows of {stride} bytes",
                    part.len()
                ),
            ));
        }
        let mut pixels;
        let data = if layout.swapped() {
            pixels = part.to_vec();
            swap_red_blue(&mut pixels, depth);
            &pixels[..]
        } else {
            part
        };
        encode_lossless(data, width as u32, rows as u32, layout.has_alpha())
    }

    /// Decodes one WebP file into packed rows of `layout`.
    fn decode(&self, layout: Layout, file: &[u8]) -> Result<Vec<u8>, FilterError> {
        let (buf, decoded_alpha) = decode_image(file)?;
        let mut out = match (decoded_alpha, layout.has_alpha()) {
            (true, true) | (false, false) => buf,
            // WebPDecodeRGB/BGR of an image with alpha drop it.
            (true, false) => buf
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect(),
            // WebPDecodeRGBA/BGRA of an opaque image: alpha 255.
            (false, true) => buf
                .chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
        };
        if layout.swapped() {
            swap_red_blue(&mut out, layout.depth());
        }
        Ok(out)
    }
}

/// Encodes `width` x `rows` pixels of RGB or RGBA as a lossless WebP file.
#[cfg(feature = "webp")]
fn encode_lossless(
    pixels: &[u8],
    width: u32,
    rows: u32,
    alpha: bool,
) -> Result<Vec<u8>, FilterError> {
    let color = if alpha {
        ColorType::Rgba8
    } else {
        ColorType::Rgb8
    };
    let mut out = Vec::new();
    WebPEncoder::new(&mut out)
        .encode(pixels, width, rows, color)
        .map_err(|e| FilterError::new(NAME, format!("Error encoding image data: {e}")))?;
    Ok(out)
}

/// Decodes a WebP file: its pixels, RGB or RGBA, and whether they are RGBA.
#[cfg(feature = "webp")]
fn decode_image(file: &[u8]) -> Result<(Vec<u8>, bool), FilterError> {
    let err = |e: &dyn std::fmt::Display| {
        FilterError::new(NAME, format!("Error decoding image data: {e}"))
    };
    let mut dec = WebPDecoder::new(std::io::Cursor::new(file)).map_err(|e| err(&e))?;
    if dec.is_animated() {
        // libwebp's simple decoding API refuses animations.
        return Err(err(&"an animated WebP"));
    }
    let size = dec
        .output_buffer_size()
        .ok_or_else(|| err(&"the image is too large"))?;
    let mut buf = vec![0u8; size];
    dec.read_image(&mut buf).map_err(|e| err(&e))?;
    Ok((buf, dec.has_alpha()))
}

#[cfg(not(feature = "webp"))]
fn encode_lossless(
    _pixels: &[u8],
    _width: u32,
    _rows: u32,
    _alpha: bool,
) -> Result<Vec<u8>, FilterError> {
    Err(FilterError::needs_feature(NAME, "webp"))
}

#[cfg(not(feature = "webp"))]
fn decode_image(_file: &[u8]) -> Result<(Vec<u8>, bool), FilterError> {
    Err(FilterError::needs_feature(NAME, "webp"))
}

/// Without the `webp` feature, the error running the filter gives before
/// anything else is checked; with it, nothing.
fn require_feature() -> Result<(), FilterError> {
    if cfg!(feature = "webp") {
        Ok(())
    } else {
        Err(FilterError::needs_feature(NAME, "webp"))
    }
}

impl FilterCodec for Webp {
    fn name(&self) -> &'static str {
        NAME
    }

    fn forward(&self, _cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        require_feature()?;
        let layout = self.layout()?;
        let data = input
            .data
            .iter()
            .map(|part| self.encode(layout, part))
            .collect::<Result<Vec<_>, _>>()?;
        // The images' count and lengths, stated by the generated writers
        // (refused when one exceeds 4 GiB).
        let own = WebpChunkMetadata::default()
            .with_outside_sizes(&data)
            .map_err(super::too_large(NAME))?
            .with_sizes();
        let own = encode(&own).map_err(super::too_large(NAME))?;
        let mut metadata = vec![own];
        metadata.extend(input.metadata);
        Ok(Parts { metadata, data })
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        require_feature()?;
        if cx.datatype != Datatype::Uint8 {
            return Err(FilterError::new(
                NAME,
                format!(
                    "Unsupported input type {}: WEBP takes UINT8",
                    cx.datatype.name()
                ),
            ));
        }
        let layout = self.layout()?;
        let (md, md_pos) = decode::<WebpChunkMetadata>(metadata, 0, ())
            .map_err(|e| FilterError::new(NAME, format!("chunk metadata: {e}")))?;
        let mut out = Vec::new();
        let mut pos = 0usize;
        for len in md.part_sizes {
            let len = len as usize;
            let Some(file) = pos.checked_add(len).and_then(|end| data.get(pos..end)) else {
                return Err(FilterError::new(
                    NAME,
                    format!(
                        "an image of {len} bytes at {pos} runs past the chunk's {} bytes",
                        data.len()
                    ),
                ));
            };
            out.extend_from_slice(&self.decode(layout, file)?);
            pos += len;
        }
        Ok(Reversed {
            metadata: metadata[md_pos as usize..].to_vec(),
            data: out,
        })
    }
}

#[cfg(all(test, not(feature = "webp")))]
mod without_the_feature {
    use super::*;

    #[test]
    fn running_the_filter_names_the_missing_feature() {
        let f = Webp {
            quality: 100.0,
            input_format: WebpInputFormat::Rgb,
            lossless: true,
            y_extent: 1,
            x_extent: 3,
        };
        let cx = FilterContext::new(Datatype::Uint8, 1, 22);
        let e = f.forward(&cx, Parts::chunk(&[1, 2, 3])).unwrap_err();
        assert_eq!(e.missing_feature, Some("webp"));
        let e = f.reverse(&cx, &[], &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "WEBP: the WEBP filter needs tiledb-codec's `webp` feature"
        );
    }
}

#[cfg(all(test, feature = "webp"))]
mod tests {
    use super::*;

    fn cx(datatype: Datatype) -> FilterContext<'static> {
        FilterContext::new(datatype, 1, 22)
    }

    fn webp(format: WebpInputFormat, lossless: bool, y: u16, x: u16) -> Webp {
        Webp {
            quality: 100.0,
            input_format: format,
            lossless,
            y_extent: y,
            x_extent: x,
        }
    }

    #[test]
    fn lossless_round_trip_every_format() {
        for (format, depth) in [
            (WebpInputFormat::Rgb, 3u16),
            (WebpInputFormat::Bgr, 3),
            (WebpInputFormat::Rgba, 4),
            (WebpInputFormat::Bgra, 4),
        ] {
            let f = webp(format, true, 5, 7 * depth);
            let image: Vec<u8> = (0..5 * 7 * depth as usize)
                .map(|i| (i * 37 % 251) as u8)
                .collect();
            let input = Parts {
                metadata: vec![vec![9, 9]],
                data: vec![image.clone()],
            };
            let p = f.forward(&cx(Datatype::Uint8), input).unwrap();
            assert_eq!(p.metadata.len(), 2);
            assert_eq!(p.metadata[0].len(), 8);
            assert_eq!(&p.data[0][..4], b"RIFF");
            let r = f
                .reverse(&cx(Datatype::Uint8), &p.metadata_bytes(), &p.data_bytes())
                .unwrap();
            assert_eq!(r.data, image, "{format:?}");
            assert_eq!(r.metadata, vec![9, 9]);
        }
    }

    #[test]
    fn formats_convert_on_decode() {
        // An RGB image read back as BGRA: channels swapped, alpha 255.
        let rgb = webp(WebpInputFormat::Rgb, true, 1, 6);
        let p = rgb
            .forward(&cx(Datatype::Uint8), Parts::chunk(&[1, 2, 3, 4, 5, 6]))
            .unwrap();
        let bgra = webp(WebpInputFormat::Bgra, true, 1, 8);
        let r = bgra
            .reverse(&cx(Datatype::Uint8), &p.metadata_bytes(), &p.data_bytes())
            .unwrap();
        assert_eq!(r.data, vec![3, 2, 1, 255, 6, 5, 4, 255]);
    }

    #[test]
    fn refusals() {
        let lossy = webp(WebpInputFormat::Rgb, false, 1, 3);
        let e = lossy
            .forward(&cx(Datatype::Uint8), Parts::chunk(&[1, 2, 3]))
            .unwrap_err();
        assert_eq!(e.what, "lossy WEBP encoding is not supported");
        let f = webp(WebpInputFormat::Rgb, true, 2, 3);
        assert!(f
            .forward(&cx(Datatype::Uint8), Parts::chunk(&[1, 2, 3]))
            .is_err());
        let none = webp(WebpInputFormat::None, true, 1, 3);
        assert!(none
            .forward(&cx(Datatype::Uint8), Parts::chunk(&[1, 2, 3]))
            .is_err());
        let f = webp(WebpInputFormat::Rgb, true, 1, 3);
        let p = f
            .forward(&cx(Datatype::Uint8), Parts::chunk(&[1, 2, 3]))
            .unwrap();
        let (md, data) = (p.metadata_bytes(), p.data_bytes());
        assert!(f.reverse(&cx(Datatype::Int32), &md, &data).is_err());
        assert!(f.reverse(&cx(Datatype::Uint8), &md[..6], &data).is_err());
        assert!(f
            .reverse(&cx(Datatype::Uint8), &md, &data[..data.len() - 1])
            .is_err());
        let mut bad = data.clone();
        bad[0] = b'X';
        assert!(f.reverse(&cx(Datatype::Uint8), &md, &bad).is_err());
    }
}
