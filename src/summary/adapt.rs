//! Format tables -> typed model, for the summary only.
//!
//! Temporary: the model's own conversions (`model::Schema::from_table`,
//! `Fragment::non_empty_domain` as a typed value, typed metadata) replace
//! this file when they land; nothing here is public.

use std::num::NonZeroU32;
use std::path::Path;

use crate::array::fragment::{Fragment, Metadata};
use crate::array::schema::{self as schema_io, dimension_datatype};
use crate::error::{Error, Result};
use crate::filters::ReadOptions;
use crate::format::{self, Datatype, FilterOptions, FilterType};
use crate::model::{
    ArrayType, Attribute, CellValNum, CurrentDomain, DataOrder, Dimension, DimensionLabel,
    DomainRange, Enumeration, Filter, Layout, NonEmptyDomain, Range, Schema, Value, WebpFormat,
};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn cell_val_num(n: u32) -> CellValNum {
    if n == u32::MAX {
        CellValNum::Var
    } else {
        CellValNum::Fixed(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
    }
}

fn layout(code: u8) -> Layout {
    match format::Layout::from_value(code) {
        Some(format::Layout::ColMajor) => Layout::ColMajor,
        Some(format::Layout::GlobalOrder) => Layout::GlobalOrder,
        Some(format::Layout::Unordered) => Layout::Unordered,
        Some(format::Layout::Hilbert) => Layout::Hilbert,
        _ => Layout::RowMajor,
    }
}

fn datatype(code: u8, path: &Path, what: &str) -> Result<Datatype> {
    Datatype::from_value(code).ok_or_else(|| Error::NotTileDb {
        path: path.to_path_buf(),
        what: format!("{what}: unknown datatype code {code}"),
    })
}

/// One filter of a pipeline.
pub(crate) fn filter(f: &format::Filter) -> Filter {
    let level = match &f.filter_options {
        FilterOptions::Compressor(o) => o.compression_level,
        _ => 0,
    };
    let reinterpret = match &f.filter_options {
        FilterOptions::Compressor(o) => o
            .reinterpret_datatype
            .and_then(Datatype::from_value)
            .filter(|d| *d != Datatype::Any),
        _ => None,
    };
    match (FilterType::from_value(f.filter_type), &f.filter_options) {
        (Some(FilterType::Gzip), _) => Filter::Gzip { level },
        (Some(FilterType::Zstd), _) => Filter::Zstd { level },
        (Some(FilterType::Lz4), _) => Filter::Lz4 { level },
        (Some(FilterType::Rle), _) => Filter::Rle { level },
        (Some(FilterType::Bzip2), _) => Filter::Bzip2 { level },
        (Some(FilterType::Dictionary), _) => Filter::Dictionary { level },
        (Some(FilterType::Delta), _) => Filter::Delta { level, reinterpret },
        (Some(FilterType::DoubleDelta), _) => Filter::DoubleDelta { level, reinterpret },
        (Some(FilterType::BitWidthReduction), FilterOptions::BitWidthReduction(o)) => {
            Filter::BitWidthReduction {
                max_window_size: o.max_window_size,
            }
        }
        (Some(FilterType::PositiveDelta), FilterOptions::PositiveDelta(o)) => {
            Filter::PositiveDelta {
                max_window_size: o.max_window_size,
            }
        }
        (Some(FilterType::Bitshuffle), _) => Filter::BitShuffle,
        (Some(FilterType::Byteshuffle), _) => Filter::ByteShuffle,
        (Some(FilterType::ChecksumMd5), _) => Filter::ChecksumMd5,
        (Some(FilterType::ChecksumSha256), _) => Filter::ChecksumSha256,
        (Some(FilterType::Xor), _) => Filter::Xor,
        (Some(FilterType::Aes256Gcm), _) => Filter::Aes256Gcm,
        (_, FilterOptions::FloatScale(o)) => Filter::ScaleFloat {
            scale: o.scale,
            offset: o.offset,
            byte_width: o.byte_width,
        },
        (_, FilterOptions::Webp(o)) => Filter::Webp {
            quality: o.quality,
            input_format: match format::WebpInputFormat::from_value(o.input_format) {
                Some(format::WebpInputFormat::Rgb) => WebpFormat::Rgb,
                Some(format::WebpInputFormat::Bgr) => WebpFormat::Bgr,
                Some(format::WebpInputFormat::Rgba) => WebpFormat::Rgba,
                Some(format::WebpInputFormat::Bgra) => WebpFormat::Bgra,
                _ => WebpFormat::None,
            },
            lossless: o.lossless != 0,
        },
        _ => Filter::None,
    }
}

fn pipeline(p: &format::FilterPipeline) -> Vec<Filter> {
    p.filters.iter().map(filter).collect()
}

fn le<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    b.get(..N)?.try_into().ok()
}

/// One value of `dt` from its little-endian bytes.
pub(crate) fn value(dt: Datatype, b: &[u8]) -> Option<Value> {
    Some(match dt {
        Datatype::Int8 => Value::Int8(i8::from_le_bytes(le(b)?)),
        Datatype::Int16 => Value::Int16(i16::from_le_bytes(le(b)?)),
        Datatype::Int32 => Value::Int32(i32::from_le_bytes(le(b)?)),
        Datatype::Uint8 | Datatype::Bool | Datatype::Char => Value::UInt8(*b.first()?),
        Datatype::Uint16 => Value::UInt16(u16::from_le_bytes(le(b)?)),
        Datatype::Uint32 => Value::UInt32(u32::from_le_bytes(le(b)?)),
        Datatype::Uint64 => Value::UInt64(u64::from_le_bytes(le(b)?)),
        Datatype::Float32 => Value::Float32(f32::from_le_bytes(le(b)?)),
        Datatype::Float64 => Value::Float64(f64::from_le_bytes(le(b)?)),
        Datatype::StringAscii | Datatype::StringUtf8 => Value::Bytes(b.to_vec()),
        _ if dt.size() == 8 => Value::Int64(i64::from_le_bytes(le(b)?)),
        _ => return None,
    })
}

/// A range of `dt` from the bytes of its two ends.
pub(crate) fn range(dt: Datatype, lo: &[u8], hi: &[u8]) -> Option<DomainRange> {
    Some(match (value(dt, lo)?, value(dt, hi)?) {
        (Value::Int8(start), Value::Int8(end)) => DomainRange::Int8(Range { start, end }),
        (Value::Int16(start), Value::Int16(end)) => DomainRange::Int16(Range { start, end }),
        (Value::Int32(start), Value::Int32(end)) => DomainRange::Int32(Range { start, end }),
        (Value::Int64(start), Value::Int64(end)) => DomainRange::Int64(Range { start, end }),
        (Value::UInt8(start), Value::UInt8(end)) => DomainRange::UInt8(Range { start, end }),
        (Value::UInt16(start), Value::UInt16(end)) => DomainRange::UInt16(Range { start, end }),
        (Value::UInt32(start), Value::UInt32(end)) => DomainRange::UInt32(Range { start, end }),
        (Value::UInt64(start), Value::UInt64(end)) => DomainRange::UInt64(Range { start, end }),
        (Value::Float32(start), Value::Float32(end)) => DomainRange::Float32(Range { start, end }),
        (Value::Float64(start), Value::Float64(end)) => DomainRange::Float64(Range { start, end }),
        (Value::Bytes(start), Value::Bytes(end)) => DomainRange::Bytes(Range { start, end }),
        _ => return None,
    })
}

/// A fixed-size range (both ends `dt.size()` wide) or, for var-sized
/// dimensions, one split at `min_length`.
fn mbr_range(dt: Datatype, r: &format::Range1D) -> Option<DomainRange> {
    let split = match r.min_length {
        Some(m) => usize::try_from(m).ok()?.min(r.range.len()),
        None => r.range.len() / 2,
    };
    range(dt, &r.range[..split], &r.range[split..])
}

fn dims(s: &format::ArraySchema, path: &Path) -> Result<Vec<Datatype>> {
    s.domain
        .dimensions
        .iter()
        .map(|d| datatype(dimension_datatype(s, d), path, "dimension"))
        .collect()
}

/// The schema of the array at `array`, with its enumerations' labels.
pub(crate) fn schema(array: &Path, s: &format::ArraySchema, opts: &ReadOptions) -> Result<Schema> {
    let dts = dims(s, array)?;
    let dimensions = s
        .domain
        .dimensions
        .iter()
        .zip(&dts)
        .map(|(d, &dt)| {
            let half = d.domain.len() / 2;
            let domain = (!d.domain.is_empty())
                .then(|| range(dt, &d.domain[..half], &d.domain[half..]))
                .flatten();
            let tile_extent = (!d.tile_extent.is_empty())
                .then(|| value(dt, &d.tile_extent))
                .flatten();
            // An empty pipeline means "the coordinate filters".
            let filters = d
                .filters
                .as_ref()
                .filter(|p| !p.filters.is_empty())
                .map(pipeline);
            Dimension {
                name: text(&d.name),
                datatype: dt,
                cell_val_num: cell_val_num(d.cell_val_num.unwrap_or(1)),
                domain,
                tile_extent,
                filters,
            }
        })
        .collect();
    let mut attributes = Vec::new();
    for a in &s.attributes {
        attributes.push(Attribute {
            name: text(&a.name),
            datatype: datatype(a.datatype, array, "attribute")?,
            cell_val_num: cell_val_num(a.cell_val_num),
            nullable: a.nullable.unwrap_or(0) != 0,
            fill_value: a.fill_value.clone().unwrap_or_default(),
            fill_value_valid: a.fill_value_validity.unwrap_or(0) != 0,
            filters: pipeline(&a.filters),
            enumeration: a
                .enumeration_name
                .as_ref()
                .filter(|n| !n.is_empty())
                .map(|n| text(n)),
        });
    }
    let mut enumerations = Vec::new();
    for entry in s.enumerations.iter().flatten() {
        let name = text(&entry.filename);
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
            return Err(Error::NotTileDb {
                path: array.to_path_buf(),
                what: format!("enumeration file name {name:?} is not a file name"),
            });
        }
        let file = array.join("__schema/__enumerations").join(&name);
        let e = schema_io::read_enumeration(&file, opts)?;
        let values = schema_io::enumeration_values(&e, &file)?
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect();
        enumerations.push(Enumeration {
            name: text(&e.name),
            path_name: text(&e.path_name),
            datatype: datatype(e.datatype, &file, "enumeration")?,
            cell_val_num: cell_val_num(e.cell_val_num),
            ordered: e.ordered != 0,
            values,
        });
    }
    let mut dimension_labels = Vec::new();
    for l in s.labels.iter().flatten() {
        dimension_labels.push(DimensionLabel {
            dimension: l.dimension_index,
            name: text(&l.name),
            uri: text(&l.uri),
            relative_uri: l.relative_uri != 0,
            attribute: text(&l.attribute_name),
            order: match format::DataOrder::from_value(l.label_order) {
                Some(format::DataOrder::IncreasingData) => DataOrder::Increasing,
                Some(format::DataOrder::DecreasingData) => DataOrder::Decreasing,
                _ => DataOrder::Unordered,
            },
            datatype: datatype(l.datatype, array, "dimension label")?,
            cell_val_num: cell_val_num(l.cell_val_num),
            external: l.is_external != 0,
        });
    }
    let current_domain = s.current_domain.as_ref().map(|c| match &c.ndrectangle {
        Some(mbr) if c.empty == 0 => CurrentDomain::NdRectangle(
            mbr.ranges
                .iter()
                .zip(&dts)
                .filter_map(|(r, &dt)| mbr_range(dt, r))
                .collect(),
        ),
        _ => CurrentDomain::Empty,
    });
    Ok(Schema {
        version: s.array_version,
        array_type: if s.array_type == format::ArrayType::Sparse.value() {
            ArrayType::Sparse
        } else {
            ArrayType::Dense
        },
        cell_order: layout(s.cell_order),
        tile_order: layout(s.tile_order),
        capacity: s.capacity,
        allows_duplicates: s.allows_dups.unwrap_or(0) != 0,
        dimensions,
        attributes,
        coords_filters: pipeline(&s.coords_filters),
        offsets_filters: pipeline(&s.offsets_filters),
        validity_filters: s
            .validity_filters
            .as_ref()
            .map(pipeline)
            .unwrap_or_default(),
        enumerations,
        dimension_labels,
        current_domain,
    })
}

/// A fragment's non-empty domain, typed; `None` when it has none or it
/// does not decode.
pub(crate) fn non_empty_domain(f: &Fragment) -> Option<NonEmptyDomain> {
    let s = &f.schema;
    let dts: Vec<Datatype> = s
        .domain
        .dimensions
        .iter()
        .map(|d| Datatype::from_value(dimension_datatype(s, d)))
        .collect::<Option<_>>()?;
    let split = |raw: &[u8]| -> Option<NonEmptyDomain> {
        let mut out = Vec::new();
        let mut pos = 0usize;
        for &dt in &dts {
            let w = dt.size() as usize;
            let lo = raw.get(pos..pos + w)?;
            let hi = raw.get(pos + w..pos + 2 * w)?;
            out.push(range(dt, lo, hi)?);
            pos += 2 * w;
        }
        Some(out)
    };
    match &f.metadata {
        Metadata::Footer(ft) => {
            if let Some(mbr) = &ft.non_empty_domain {
                mbr.ranges
                    .iter()
                    .zip(&dts)
                    .map(|(r, &dt)| mbr_range(dt, r))
                    .collect()
            } else {
                split(ft.legacy_non_empty_domain.as_deref()?)
            }
        }
        Metadata::Legacy(l) => split(&l.non_empty_domain),
    }
}
