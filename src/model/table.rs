//! The model from and to the generated tables of [`crate::format`]
//! (format_spec/array_schema.md, format_spec/enumeration.md,
//! format_spec/filter_pipeline.md).

use std::path::Path;

use super::{
    ArrayType, Attribute, CellValNum, CurrentDomain, DataOrder, Datatype, Dimension,
    DimensionLabel, DomainRange, Enumeration, Filter, Layout, Schema, Value, WebpFormat,
};
use crate::error::{Error, Result};
use crate::format::schema::{dimension_datatype, enumeration_values, MAX_FORMAT_VERSION};
use crate::format::version::{
    has_current_domain, has_delta_reinterpret_datatype, has_dimension_labels,
    has_double_delta_reinterpret_datatype, has_enumerations, has_nullable_attributes,
    has_typed_dimensions, reads_version, CURRENT_DOMAIN_SINCE, DELTA_REINTERPRET_DATATYPE_SINCE,
    DOUBLE_DELTA_REINTERPRET_DATATYPE_SINCE, MIN_FORMAT_VERSION, TYPED_DIMENSIONS_SINCE,
};
use crate::format::{self, FilterOptions, FilterType, Record};

/// Why a model cannot be laid out as the tables of a format version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A part of the schema is invalid or not expressible in the version;
    /// `field` is a path into the schema (`schema.attributes[1].filters[0]`).
    #[error("schema: {field}: {what}")]
    Schema {
        /// Where in the schema.
        field: String,
        /// What is wrong.
        what: String,
    },
    /// The format version is not one the tables can be laid out in.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

fn err(field: &str, what: impl Into<String>) -> ModelError {
    ModelError::Schema {
        field: field.to_string(),
        what: what.into(),
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A decode error of the schema file at `path`.
/// A layout of the schema, or an error naming the field for one this crate
/// does not know.
fn layout(l: format::Layout, path: &Path, field: &str) -> Result<Layout> {
    Layout::try_from(l)
        .map_err(|code| bad(path, "ArraySchema", field, format!("unknown layout {code}")))
}

fn bad(path: &Path, table: &str, field: &str, what: impl Into<String>) -> Error {
    Error::decode(path, 0, table, field, what)
}

fn datatype(code: Datatype, path: &Path, table: &str, field: &str) -> Result<Datatype> {
    code.known().ok_or_else(|| {
        bad(
            path,
            table,
            field,
            format!("{} is not a datatype", code.value()),
        )
    })
}

fn cell_val_num(n: u32, path: &Path, table: &str) -> Result<CellValNum> {
    CellValNum::from_raw(n).ok_or_else(|| {
        bad(
            path,
            table,
            "cell_val_num",
            "0 values per cell (a count of at least 1, or u32::MAX for var-sized)",
        )
    })
}

impl Filter {
    /// A filter from its table. DELTA and DOUBLE_DELTA without a reinterpret
    /// datatype (versions before the option) reinterpret as ANY, as the
    /// engine reads them.
    pub(crate) fn from_table(f: &format::Filter, path: &Path) -> Result<Filter> {
        let t = f.filter_type;
        let options = |what: &str| {
            bad(
                path,
                "Filter",
                "filter_options",
                format!("{} options for a {} filter", what, t.name()),
            )
        };
        let level = || match &f.filter_options {
            FilterOptions::Compressor(o) => Ok(o.compression_level),
            _ => Err(options("no compressor")),
        };
        Ok(match t {
            FilterType::None => Filter::None,
            FilterType::Gzip => Filter::Gzip { level: level()? },
            FilterType::Zstd => Filter::Zstd { level: level()? },
            FilterType::Lz4 => Filter::Lz4 { level: level()? },
            FilterType::Rle => Filter::Rle { level: level()? },
            FilterType::Bzip2 => Filter::Bzip2 { level: level()? },
            FilterType::Dictionary => Filter::Dictionary { level: level()? },
            FilterType::Delta | FilterType::DoubleDelta => {
                let FilterOptions::Compressor(o) = &f.filter_options else {
                    return Err(options("no compressor"));
                };
                let reinterpret = match o.reinterpret_datatype {
                    Some(r) => datatype(r, path, "CompressorOptions", "reinterpret_datatype")?,
                    None => Datatype::Any,
                };
                let (level, reinterpret) = (o.compression_level, Some(reinterpret));
                if t == FilterType::Delta {
                    Filter::Delta { level, reinterpret }
                } else {
                    Filter::DoubleDelta { level, reinterpret }
                }
            }
            FilterType::BitWidthReduction => match &f.filter_options {
                FilterOptions::BitWidthReduction(o) => Filter::BitWidthReduction {
                    max_window_size: o.max_window_size,
                },
                _ => return Err(options("missing")),
            },
            FilterType::PositiveDelta => match &f.filter_options {
                FilterOptions::PositiveDelta(o) => Filter::PositiveDelta {
                    max_window_size: o.max_window_size,
                },
                _ => return Err(options("missing")),
            },
            FilterType::Bitshuffle => Filter::BitShuffle,
            FilterType::Byteshuffle => Filter::ByteShuffle,
            FilterType::ChecksumMd5 => Filter::ChecksumMd5,
            FilterType::ChecksumSha256 => Filter::ChecksumSha256,
            FilterType::Xor => Filter::Xor,
            FilterType::Aes256Gcm => Filter::Aes256Gcm,
            FilterType::ScaleFloat => match &f.filter_options {
                FilterOptions::FloatScale(o) => Filter::ScaleFloat {
                    scale: o.scale,
                    offset: o.offset,
                    byte_width: o.byte_width,
                },
                _ => return Err(options("missing")),
            },
            FilterType::Webp => match &f.filter_options {
                FilterOptions::Webp(o) => Filter::Webp {
                    quality: o.quality,
                    input_format: WebpFormat::from_code(o.input_format).ok_or_else(|| {
                        bad(
                            path,
                            "WebpOptions",
                            "input_format",
                            format!("{} is not a WEBP input format", o.input_format.value()),
                        )
                    })?,
                    lossless: o.lossless != 0,
                },
                _ => return Err(options("missing")),
            },
            FilterType::Deprecated => {
                return Err(bad(
                    path,
                    "Filter",
                    "filter_type",
                    "filter type 17 is rejected by the engine",
                ))
            }
            _ => {
                let code = t.value();
                return Err(bad(
                    path,
                    "Filter",
                    "filter_type",
                    format!("{code} is not a filter type"),
                ));
            }
        })
    }

    /// The filter's type.
    pub(crate) fn filter_type(&self) -> FilterType {
        match self {
            Filter::None => FilterType::None,
            Filter::Gzip { .. } => FilterType::Gzip,
            Filter::Zstd { .. } => FilterType::Zstd,
            Filter::Lz4 { .. } => FilterType::Lz4,
            Filter::Rle { .. } => FilterType::Rle,
            Filter::Bzip2 { .. } => FilterType::Bzip2,
            Filter::DoubleDelta { .. } => FilterType::DoubleDelta,
            Filter::Delta { .. } => FilterType::Delta,
            Filter::Dictionary { .. } => FilterType::Dictionary,
            Filter::BitWidthReduction { .. } => FilterType::BitWidthReduction,
            Filter::BitShuffle => FilterType::Bitshuffle,
            Filter::ByteShuffle => FilterType::Byteshuffle,
            Filter::PositiveDelta { .. } => FilterType::PositiveDelta,
            Filter::ChecksumMd5 => FilterType::ChecksumMd5,
            Filter::ChecksumSha256 => FilterType::ChecksumSha256,
            Filter::ScaleFloat { .. } => FilterType::ScaleFloat,
            Filter::Xor => FilterType::Xor,
            Filter::Webp { .. } => FilterType::Webp,
            Filter::Aes256Gcm => FilterType::Aes256Gcm,
        }
    }

    /// The filter's table in format `version`. `webp_extents` are the tile
    /// extents of dimensions 0 and 1, which a WEBP filter stores. A
    /// reinterpret datatype other than ANY needs a version that stores it
    /// (`has_delta_reinterpret_datatype`,
    /// `has_double_delta_reinterpret_datatype`); `field` names the filter
    /// in errors. The options' size is the generated `with_sizes`'.
    pub(crate) fn to_table(
        &self,
        version: u32,
        webp_extents: (u16, u16),
        field: &str,
    ) -> Result<format::Filter, ModelError> {
        let compressor = |compressor_type: format::Compressor, level: i32| {
            FilterOptions::Compressor(crate::format::table!(format::CompressorOptions {
                compressor_type,
                compression_level: level,
                reinterpret_datatype: None,
            }))
        };
        // `stored`: whether the version stores the reinterpret datatype;
        // `since`: the version that does, for the error.
        let delta = |compressor_type: format::Compressor,
                     level: i32,
                     r: Option<Datatype>,
                     (stored, since): (bool, u32)| {
            let r = r.unwrap_or(Datatype::Any);
            if !stored && r != Datatype::Any {
                return Err(err(
                    field,
                    format!("a reinterpret datatype needs format version {since} or later"),
                ));
            }
            let reinterpret_datatype = stored.then_some(r);
            Ok(FilterOptions::Compressor(crate::format::table!(
                format::CompressorOptions {
                    compressor_type,
                    compression_level: level,
                    reinterpret_datatype,
                }
            )))
        };
        // The compressor byte is the engine's Compressor enum.
        let filter_options =
            match *self {
                Filter::None
                | Filter::BitShuffle
                | Filter::ByteShuffle
                | Filter::ChecksumMd5
                | Filter::ChecksumSha256
                | Filter::Xor
                | Filter::Aes256Gcm => FilterOptions::NoOptions,
                Filter::Gzip { level } => compressor(format::Compressor::Gzip, level),
                Filter::Zstd { level } => compressor(format::Compressor::Zstd, level),
                Filter::Lz4 { level } => compressor(format::Compressor::Lz4, level),
                Filter::Rle { level } => compressor(format::Compressor::Rle, level),
                Filter::Bzip2 { level } => compressor(format::Compressor::Bzip2, level),
                Filter::DoubleDelta { level, reinterpret } => {
                    let stored = has_double_delta_reinterpret_datatype(version);
                    let gate = (stored, DOUBLE_DELTA_REINTERPRET_DATATYPE_SINCE);
                    delta(format::Compressor::DoubleDelta, level, reinterpret, gate)?
                }
                Filter::Dictionary { level } => {
                    compressor(format::Compressor::DictionaryEncoding, level)
                }
                Filter::Delta { level, reinterpret } => {
                    let stored = has_delta_reinterpret_datatype(version);
                    let gate = (stored, DELTA_REINTERPRET_DATATYPE_SINCE);
                    delta(format::Compressor::Delta, level, reinterpret, gate)?
                }
                Filter::BitWidthReduction { max_window_size } => FilterOptions::BitWidthReduction(
                    crate::format::table!(format::BitWidthReductionOptions { max_window_size }),
                ),
                Filter::PositiveDelta { max_window_size } => FilterOptions::PositiveDelta(
                    crate::format::table!(format::PositiveDeltaOptions { max_window_size }),
                ),
                Filter::ScaleFloat {
                    scale,
                    offset,
                    byte_width,
                } => FilterOptions::FloatScale(crate::format::table!(format::FloatScaleOptions {
                    scale,
                    offset,
                    byte_width,
                })),
                Filter::Webp {
                    quality,
                    input_format,
                    lossless,
                } => FilterOptions::Webp(crate::format::table!(format::WebpOptions {
                    quality,
                    input_format: input_format.code(),
                    lossless: u8::from(lossless),
                    y_extent: webp_extents.0,
                    x_extent: webp_extents.1,
                    padding: vec![0, 0],
                })),
            };
        Ok(crate::format::table!(format::Filter {
            filter_type: self.filter_type(),
            filter_options,
        })
        .with_sizes())
    }
}

impl WebpFormat {
    /// From the on-disk code; `None` for a code the format does not list.
    pub(crate) fn from_code(code: format::WebpInputFormat) -> Option<WebpFormat> {
        use format::WebpInputFormat as W;
        Some(match code {
            W::None => WebpFormat::None,
            W::Rgb => WebpFormat::Rgb,
            W::Bgr => WebpFormat::Bgr,
            W::Rgba => WebpFormat::Rgba,
            W::Bgra => WebpFormat::Bgra,
            _ => return None,
        })
    }

    /// The on-disk code.
    pub(crate) fn code(self) -> format::WebpInputFormat {
        use format::WebpInputFormat as W;
        match self {
            WebpFormat::None => W::None,
            WebpFormat::Rgb => W::Rgb,
            WebpFormat::Bgr => W::Bgr,
            WebpFormat::Rgba => W::Rgba,
            WebpFormat::Bgra => W::Bgra,
        }
    }

    /// The format's name as the spec spells it (`RGB`, `NONE`...).
    pub fn name(self) -> &'static str {
        self.code().name()
    }
}

impl DataOrder {
    /// From the on-disk code; `None` for one this crate does not know (a
    /// later spec's).
    pub(crate) fn from_code(code: format::DataOrder) -> Option<DataOrder> {
        use format::DataOrder as D;
        Some(match code {
            D::UnorderedData => DataOrder::Unordered,
            D::IncreasingData => DataOrder::Increasing,
            D::DecreasingData => DataOrder::Decreasing,
            _ => return None,
        })
    }

    /// The on-disk code.
    pub(crate) fn code(self) -> format::DataOrder {
        use format::DataOrder as D;
        match self {
            DataOrder::Unordered => D::UnorderedData,
            DataOrder::Increasing => D::IncreasingData,
            DataOrder::Decreasing => D::DecreasingData,
        }
    }
}

fn filters_from(p: &format::FilterPipeline, path: &Path) -> Result<Vec<Filter>> {
    p.filters
        .iter()
        .map(|f| Filter::from_table(f, path))
        .collect()
}

fn pipeline(
    filters: &[Filter],
    version: u32,
    webp: (u16, u16),
    field: &str,
) -> Result<format::FilterPipeline, ModelError> {
    Ok(crate::format::table!(format::FilterPipeline {
        max_chunk_size: 65536,
        filters: filters
            .iter()
            .enumerate()
            .map(|(i, f)| f.to_table(version, webp, &format!("{field}[{i}]")))
            .collect::<Result<_, _>>()?,
    })
    .with_sizes())
}

/// A range of an `Mbr`/NDRectangle entry (format_spec/fragment.md "MBR"):
/// var-sized ranges carry the length of their low bound.
pub(crate) fn range_from_table(dt: Datatype, r: &format::Range1D) -> Option<DomainRange> {
    match r.min_length {
        Some(m) => {
            let m = usize::try_from(m).ok().filter(|&m| m <= r.range.len())?;
            let (lo, hi) = r.range.split_at(m);
            DomainRange::from_le_bytes(dt, true, lo, hi)
        }
        None => DomainRange::from_le_pair(dt, &r.range),
    }
}

fn range_to_table(r: &DomainRange) -> Result<format::Range1D, format::EncodeError> {
    let (lo, hi) = r.to_le_bytes();
    let var = r.is_var();
    let mut range = lo.clone();
    range.extend_from_slice(&hi);
    // A var-sized range states the length of its low half (`min_length`,
    // set by `with_outside_sizes`) and of the whole (`with_sizes`).
    Ok(crate::format::table!(format::Range1D {
        range_length: var.then_some(0),
        min_length: var.then_some(0),
        range,
    })
    .with_outside_sizes(&lo)?
    .with_sizes())
}

impl Dimension {
    /// The dimension's table (`i`: its index, for errors), with every field
    /// of the newest version: `Schema::to_table` lays it out for `version`.
    fn to_table(
        &self,
        i: usize,
        version: u32,
        webp: (u16, u16),
    ) -> Result<format::Dimension, ModelError> {
        let field = format!("schema.dimensions[{i}]");
        let var = self.cell_val_num.is_var();
        let domain = match &self.domain {
            Some(r) if r.is_of(self.datatype, var) && !var => {
                let (mut lo, hi) = r.to_le_bytes();
                lo.extend_from_slice(&hi);
                lo
            }
            None if var => Vec::new(),
            _ => {
                return Err(err(
                    &format!("{field}.domain"),
                    format!(
                        "a {} dimension needs a domain of its datatype (var-sized ones none)",
                        self.datatype.name()
                    ),
                ))
            }
        };
        let tile_extent = match &self.tile_extent {
            Some(v) if v.is_of(self.datatype) && !var => Some(v.to_le_bytes()),
            None => None,
            Some(_) => {
                return Err(err(
                    &format!("{field}.tile_extent"),
                    format!("not one {} value", self.datatype.name()),
                ))
            }
        };
        let filters = self.filters.as_deref().unwrap_or(&[]);
        let filters = pipeline(filters, version, webp, &format!("{field}.filters"))?;
        Ok(crate::format::table!(format::Dimension {
            name: self.name.as_bytes().to_vec(),
            datatype: Some(self.datatype),
            cell_val_num: Some(self.cell_val_num.to_raw()),
            filters: Some(filters),
            domain_size: Some(0),
            domain,
            null_tile_extent: u8::from(tile_extent.is_none()),
            tile_extent: tile_extent.unwrap_or_default(),
        }))
    }

    fn from_table(s: &format::ArraySchema, d: &format::Dimension, path: &Path) -> Result<Self> {
        let table = "Dimension";
        let dt = datatype(dimension_datatype(s, d), path, table, "datatype")?;
        let cell_val_num = cell_val_num(d.cell_val_num.unwrap_or(1), path, table)?;
        let var = cell_val_num.is_var();
        let domain = if d.domain.is_empty() {
            None
        } else if var {
            return Err(bad(
                path,
                table,
                "domain",
                "a var-sized dimension has no domain",
            ));
        } else {
            Some(DomainRange::from_le_pair(dt, &d.domain).ok_or_else(|| {
                bad(
                    path,
                    table,
                    "domain",
                    format!("{} bytes is not two {} values", d.domain.len(), dt.name()),
                )
            })?)
        };
        let tile_extent = if d.null_tile_extent != 0 || d.tile_extent.is_empty() {
            None
        } else {
            Some(Value::from_le_bytes(dt, &d.tile_extent).ok_or_else(|| {
                bad(
                    path,
                    table,
                    "tile_extent",
                    format!(
                        "{} bytes is not one {} value",
                        d.tile_extent.len(),
                        dt.name()
                    ),
                )
            })?)
        };
        // An empty dimension pipeline means "the coords filters" (the engine
        // substitutes them, tiledb/sm/array_schema/dimension.cc); before
        // version 5 dimensions have no pipeline at all.
        let filters = match &d.filters {
            Some(p) if p.filters.is_empty() => None,
            Some(p) => Some(filters_from(p, path)?),
            None => Some(Vec::new()),
        };
        Ok(Dimension {
            name: text(&d.name),
            datatype: dt,
            cell_val_num,
            domain,
            tile_extent,
            filters,
        })
    }
}

impl Attribute {
    /// The attribute's table (`i`: its index, for errors), with every
    /// field of the newest version: `Schema::to_table` lays it out for
    /// `version`.
    fn to_table(
        &self,
        i: usize,
        version: u32,
        webp: (u16, u16),
    ) -> Result<format::Attribute, ModelError> {
        let field = format!("schema.attributes[{i}].filters");
        Ok(crate::format::table!(format::Attribute {
            name: self.name.as_bytes().to_vec(),
            datatype: self.datatype,
            cell_val_num: self.cell_val_num.to_raw(),
            filters: pipeline(&self.filters, version, webp, &field)?,
            fill_value: Some(self.fill_value.clone()),
            nullable: Some(u8::from(self.nullable)),
            fill_value_validity: Some(u8::from(self.fill_value_valid)),
            order: Some(format::DataOrder::UnorderedData),
            enumeration_name: Some(self.enumeration.clone().unwrap_or_default().into_bytes()),
        }))
    }

    fn from_table(a: &format::Attribute, path: &Path) -> Result<Self> {
        let table = "Attribute";
        Ok(Attribute {
            name: text(&a.name),
            datatype: datatype(a.datatype, path, table, "datatype")?,
            cell_val_num: cell_val_num(a.cell_val_num, path, table)?,
            nullable: a.nullable.unwrap_or(0) != 0,
            fill_value: a.fill_value.clone().unwrap_or_default(),
            fill_value_valid: a.fill_value_validity.unwrap_or(0) != 0,
            filters: filters_from(&a.filters, path)?,
            enumeration: a
                .enumeration_name
                .as_ref()
                .filter(|n| !n.is_empty())
                .map(|n| text(n)),
        })
    }
}

impl Enumeration {
    /// An enumeration from its table (a file of `__schema/__enumerations`
    /// at `path`), its values cut and checked.
    pub(crate) fn from_table(e: &format::Enumeration, path: &Path) -> Result<Self> {
        let values = enumeration_values(e, path)?;
        Ok(Enumeration {
            name: text(&e.name),
            path_name: text(&e.path_name),
            // enumeration_values has checked the datatype.
            datatype: datatype(e.datatype, path, "Enumeration", "datatype")?,
            cell_val_num: cell_val_num(e.cell_val_num, path, "Enumeration")?,
            ordered: e.ordered != 0,
            values: values.into_iter().map(<[u8]>::to_vec).collect(),
        })
    }

    /// The enumeration's table.
    pub(crate) fn to_table(&self) -> format::Enumeration {
        // Var-sized values state where each starts (the offsets are present).
        let var = self.cell_val_num.is_var();
        crate::format::table!(format::Enumeration {
            version_number: 0,
            name: self.name.as_bytes().to_vec(),
            path_name: self.path_name.as_bytes().to_vec(),
            datatype: self.datatype,
            cell_val_num: self.cell_val_num.to_raw(),
            ordered: u8::from(self.ordered),
            offsets_size: var.then_some(0),
            offsets: var.then(Vec::new),
        })
        .with_joined(&self.values)
        .with_sizes()
    }
}

impl DimensionLabel {
    fn from_table(l: &format::DimensionLabel, path: &Path) -> Result<Self> {
        let table = "DimensionLabel";
        Ok(DimensionLabel {
            dimension: l.dimension_index,
            name: text(&l.name),
            uri: text(&l.uri),
            relative_uri: l.relative_uri != 0,
            attribute: text(&l.attribute_name),
            order: DataOrder::from_code(l.label_order)
                .ok_or_else(|| bad(path, table, "label_order", "unknown data order"))?,
            datatype: datatype(l.datatype, path, table, "datatype")?,
            cell_val_num: cell_val_num(l.cell_val_num, path, table)?,
            external: l.is_external != 0,
        })
    }

    fn to_table(&self) -> format::DimensionLabel {
        crate::format::table!(format::DimensionLabel {
            dimension_index: self.dimension,
            name: self.name.as_bytes().to_vec(),
            relative_uri: u8::from(self.relative_uri),
            uri: self.uri.as_bytes().to_vec(),
            attribute_name: self.attribute.as_bytes().to_vec(),
            label_order: self.order.code(),
            datatype: self.datatype,
            cell_val_num: self.cell_val_num.to_raw(),
            is_external: u8::from(self.external),
        })
    }
}

/// Reads a typed non-empty domain (or MBR, or NDRectangle) of the
/// dimensions of `s` from its table; `None` where a range does not fit its
/// dimension's datatype.
pub(crate) fn ranges_from_mbr(
    s: &format::ArraySchema,
    mbr: &format::Mbr,
) -> Option<Vec<DomainRange>> {
    let dims = &s.domain.dimensions;
    if mbr.ranges.len() != dims.len() {
        return None;
    }
    dims.iter()
        .zip(&mbr.ranges)
        .map(|(d, r)| {
            let dt = dimension_datatype(s, d).known()?;
            let var = d.cell_val_num == Some(format::VAR_NUM);
            if var != r.min_length.is_some() {
                return None;
            }
            range_from_table(dt, r)
        })
        .collect()
}

fn current_domain(
    s: &format::ArraySchema,
    c: &format::CurrentDomain,
    path: &Path,
) -> Result<CurrentDomain> {
    let table = "CurrentDomain";
    if c.empty != 0 {
        return Ok(CurrentDomain::Empty);
    }
    match c.current_domain_type {
        Some(format::CurrentDomainType::Ndrectangle) => {}
        _ => {
            return Err(bad(
                path,
                table,
                "current_domain_type",
                format!("{:?} is not a current domain type", c.current_domain_type),
            ))
        }
    }
    let mbr = c
        .ndrectangle
        .as_ref()
        .ok_or_else(|| bad(path, table, "ndrectangle", "missing"))?;
    let ranges = ranges_from_mbr(s, mbr).ok_or_else(|| {
        bad(
            path,
            table,
            "ndrectangle",
            "the ranges do not fit the dimensions' datatypes",
        )
    })?;
    Ok(CurrentDomain::NdRectangle(ranges))
}

impl Schema {
    /// The schema of an `ArraySchema` table (read from `path`, named in
    /// errors) with the enumerations it names, read from
    /// `__schema/__enumerations`. Unknown codes and impossible counts are
    /// decode errors naming the table and field.
    pub(crate) fn from_table(
        s: &format::ArraySchema,
        enumerations: &[format::Enumeration],
        path: &Path,
    ) -> Result<Schema> {
        let table = "ArraySchema";
        let array_type = match s.array_type {
            format::ArrayType::Dense => ArrayType::Dense,
            format::ArrayType::Sparse => ArrayType::Sparse,
            _ => return Err(bad(path, table, "array_type", "unknown array type")),
        };
        let dimensions = s
            .domain
            .dimensions
            .iter()
            .map(|d| Dimension::from_table(s, d, path))
            .collect::<Result<Vec<_>>>()?;
        let attributes = s
            .attributes
            .iter()
            .map(|a| Attribute::from_table(a, path))
            .collect::<Result<Vec<_>>>()?;
        let mut enums = Vec::new();
        for entry in s.enumerations.iter().flatten() {
            let e = enumerations
                .iter()
                .find(|e| e.path_name == entry.filename)
                .ok_or_else(|| {
                    bad(
                        path,
                        table,
                        "enumerations",
                        format!(
                            "the enumeration file {:?} was not given",
                            text(&entry.filename)
                        ),
                    )
                })?;
            enums.push(Enumeration::from_table(e, path)?);
        }
        let dimension_labels = s
            .labels
            .iter()
            .flatten()
            .map(|l| DimensionLabel::from_table(l, path))
            .collect::<Result<Vec<_>>>()?;
        let current_domain = s
            .current_domain
            .as_ref()
            .map(|c| current_domain(s, c, path))
            .transpose()?;
        Ok(Schema {
            version: s.array_version,
            array_type,
            cell_order: layout(s.cell_order, path, "cell_order")?,
            tile_order: layout(s.tile_order, path, "tile_order")?,
            capacity: s.capacity,
            allows_duplicates: s.allows_dups.unwrap_or(0) != 0,
            dimensions,
            attributes,
            coords_filters: filters_from(&s.coords_filters, path)?,
            offsets_filters: filters_from(&s.offsets_filters, path)?,
            validity_filters: s
                .validity_filters
                .as_ref()
                .map(|p| filters_from(p, path))
                .transpose()?
                .unwrap_or_default(),
            enumerations: enums,
            dimension_labels,
            current_domain,
        })
    }

    /// The tile extents of dimensions 0 (y) and 1 (x), as a WEBP filter
    /// stores them (0 where there is none).
    fn webp_extents(&self) -> (u16, u16) {
        let ext = |i: usize| {
            self.dimensions
                .get(i)
                .and_then(|d| d.tile_extent.as_ref())
                .and_then(Value::as_i128)
                .map_or(0, |e| e.clamp(0, i128::from(u16::MAX)) as u16)
        };
        (ext(0), ext(1))
    }

    /// The `ArraySchema` table of format `version` (1 to
    /// [`MAX_FORMAT_VERSION`]): every field the version has is set (the
    /// generated `at_version`), and every size and count (`with_sizes`).
    /// What the version cannot store is an error: enumerations before 20,
    /// dimension labels before 18, a non-empty current domain before 22,
    /// dimensions of several datatypes or var-sized before 5.
    pub(crate) fn to_table(&self, version: u32) -> Result<format::ArraySchema, ModelError> {
        self.fits_version(version)?;
        let webp = self.webp_extents();
        let dimensions = self
            .dimensions
            .iter()
            .enumerate()
            .map(|(i, d)| d.to_table(i, version, webp))
            .collect::<Result<Vec<_>, _>>()?;
        let attributes = self
            .attributes
            .iter()
            .enumerate()
            .map(|(i, a)| a.to_table(i, version, webp))
            .collect::<Result<Vec<_>, _>>()?;
        let enumerations: Vec<format::EnumerationEntry> = self
            .enumerations
            .iter()
            .map(|e| {
                crate::format::table!(format::EnumerationEntry {
                    name: e.name.as_bytes().to_vec(),
                    filename: e.path_name.as_bytes().to_vec(),
                })
            })
            .collect();
        let labels: Vec<format::DimensionLabel> = self
            .dimension_labels
            .iter()
            .map(DimensionLabel::to_table)
            .collect();
        let pipeline = |filters: &[Filter], field: &str| pipeline(filters, version, webp, field);
        // Before version 5 every dimension has the domain's datatype.
        let domain_datatype = self
            .dimensions
            .first()
            .map_or(Datatype::Int32, |d| d.datatype);
        Ok(crate::format::table!(format::ArraySchema {
            allows_dups: Some(u8::from(self.allows_duplicates)),
            array_type: format::ArrayType::from(self.array_type),
            tile_order: format::Layout::from(self.tile_order),
            cell_order: format::Layout::from(self.cell_order),
            capacity: self.capacity,
            coords_filters: pipeline(&self.coords_filters, "schema.coords_filters")?,
            offsets_filters: pipeline(&self.offsets_filters, "schema.offsets_filters")?,
            validity_filters: Some(pipeline(&self.validity_filters, "schema.validity_filters")?),
            domain: crate::format::table!(format::Domain {
                domain_datatype: Some(domain_datatype),
                dimensions,
            }),
            attributes,
            labels: Some(labels),
            enumerations: Some(enumerations),
            current_domain: Some(self.current_domain_table()?),
        })
        .at_version(version)
        .with_sizes())
    }

    /// Whether format `version` can store the schema: it is a version this
    /// crate handles and has every feature the schema uses.
    fn fits_version(&self, version: u32) -> Result<(), ModelError> {
        if !reads_version(version) {
            return Err(ModelError::Unsupported(format!(
                "format version {version} (versions are {MIN_FORMAT_VERSION} to {MAX_FORMAT_VERSION})"
            )));
        }
        if !has_enumerations(version) && !self.enumerations.is_empty() {
            return Err(err(
                "schema.enumerations",
                "enumerations need format version 20 or later",
            ));
        }
        if !has_dimension_labels(version) && !self.dimension_labels.is_empty() {
            return Err(err(
                "schema.dimension_labels",
                "dimension labels need format version 18 or later",
            ));
        }
        if !has_current_domain(version)
            && matches!(self.current_domain, Some(CurrentDomain::NdRectangle(_)))
        {
            return Err(err(
                "schema.current_domain",
                format!("a current domain needs format version {CURRENT_DOMAIN_SINCE} or later"),
            ));
        }
        if !has_typed_dimensions(version) {
            let dt = self.dimensions.first().map(|d| d.datatype);
            if self.dimensions.iter().any(|d| Some(d.datatype) != dt) {
                return Err(err(
                    "schema.dimensions",
                    format!(
                        "before format version {TYPED_DIMENSIONS_SINCE} the dimensions have one datatype"
                    ),
                ));
            }
            if let Some(i) = self
                .dimensions
                .iter()
                .position(|d| d.cell_val_num != CellValNum::single())
            {
                return Err(err(
                    &format!("schema.dimensions[{i}].cell_val_num"),
                    format!(
                        "before format version {TYPED_DIMENSIONS_SINCE} dimensions hold one value per cell"
                    ),
                ));
            }
        }
        for (i, a) in self.attributes.iter().enumerate() {
            if !has_enumerations(version) && a.enumeration.is_some() {
                return Err(err(
                    &format!("schema.attributes[{i}].filters"),
                    "enumerations need format version 20 or later",
                ));
            }
            if !has_nullable_attributes(version) && a.nullable {
                return Err(err(
                    &format!("schema.attributes[{i}].nullable"),
                    "nullable attributes need format version 7 or later",
                ));
            }
        }
        Ok(())
    }

    /// The current domain's table (an empty one when the schema has none).
    fn current_domain_table(&self) -> Result<format::CurrentDomain, ModelError> {
        let Some(CurrentDomain::NdRectangle(ranges)) = &self.current_domain else {
            return Ok(crate::format::table!(format::CurrentDomain {
                version_number: 0,
                empty: 1,
                current_domain_type: None,
                ndrectangle: None,
            }));
        };
        let fits = ranges.len() == self.dimensions.len()
            && ranges
                .iter()
                .zip(&self.dimensions)
                .all(|(r, d)| r.is_of(d.datatype, d.cell_val_num.is_var()));
        if !fits {
            return Err(err(
                "schema.current_domain",
                "one range per dimension, of its datatype",
            ));
        }
        Ok(crate::format::table!(format::CurrentDomain {
            version_number: 0,
            empty: 0,
            current_domain_type: Some(format::CurrentDomainType::Ndrectangle),
            ndrectangle: Some(crate::format::table!(format::Mbr {
                ranges: ranges
                    .iter()
                    .map(range_to_table)
                    .collect::<Result<_, _>>()
                    .map_err(|e| err("schema.current_domain", e.to_string()))?,
            })),
        }))
    }

    /// The enumeration tables (one file each in `__schema/__enumerations`).
    pub(crate) fn enumeration_tables(&self) -> Vec<format::Enumeration> {
        self.enumerations
            .iter()
            .map(Enumeration::to_table)
            .collect()
    }
}
