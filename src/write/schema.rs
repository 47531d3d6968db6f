//! Array schemas from JSON, and array creation.
//!
//! The JSON is the object [`crate::inspect::schema_json`] prints, so that
//! `schema_json(decode(build))` gives back what was given. Enumerations are
//! written when the JSON carries their values (the shape `inspect --json` of
//! an array prints, [`crate::inspect::array_schema_json`]:
//! `{"name", "filename", "datatype", "cell_val_num", "ordered", "values"}`);
//! the bare `{"name", "filename"}` entries of `schema_json` alone (a schema
//! file's account) are refused, since the values are not there.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::format::{
    encode, ArraySchema, ArrayType, Attribute, BitWidthReductionOptions, CompressorOptions,
    CurrentDomain, Datatype, Dimension, Domain, Enumeration, EnumerationEntry, Filter,
    FilterOptions, FilterPipeline, FilterType, FloatScaleOptions, Layout, PositiveDeltaOptions,
    WebpInputFormat, WebpOptions,
};

use super::error::{WriteError, WriteResult};
use super::generic::generic_tile;
use super::util;
use super::values::{cell_bytes, default_fill_value, json_float, push_value};
use super::{FORMAT_VERSION, MAX_WRITE_VERSION, MIN_WRITE_VERSION};

/// A dimension of a [`SchemaSpec`].
#[derive(Debug, Clone, PartialEq)]
pub struct DimSpec {
    /// The dimension's name.
    pub name: String,
    /// The datatype of its coordinates.
    pub datatype: Datatype,
    /// Var-sized (string dimensions).
    pub var: bool,
    /// `[lo, hi]` as bytes (empty for var-sized dimensions).
    pub domain: Vec<u8>,
    /// The tile extent (`None`: no extent).
    pub tile_extent: Option<Vec<u8>>,
    /// Own filters; `None` means the coords filters (stored as an empty pipeline).
    pub filters: Option<Vec<Filter>>,
}

/// An attribute of a [`SchemaSpec`].
#[derive(Debug, Clone, PartialEq)]
pub struct AttrSpec {
    /// The attribute's name.
    pub name: String,
    /// The datatype of its values.
    pub datatype: Datatype,
    /// Values per cell; `u32::MAX` for var-sized.
    pub cell_val_num: u32,
    /// Whether cells may be null.
    pub nullable: bool,
    /// The value of cells no fragment wrote, as bytes.
    pub fill_value: Vec<u8>,
    /// Whether the fill value is valid (not null), for nullable attributes.
    pub fill_value_validity: bool,
    /// The attribute's filter pipeline.
    pub filters: Vec<Filter>,
    /// The enumeration its values index, by name.
    pub enumeration: Option<String>,
}

/// An enumeration of a [`SchemaSpec`].
#[derive(Debug, Clone, PartialEq)]
pub struct EnumSpec {
    /// The enumeration's name.
    pub name: String,
    /// The file name in `__schema/__enumerations`.
    pub path_name: String,
    /// The datatype of its values.
    pub datatype: Datatype,
    /// Values per enumeration value; `u32::MAX` for var-sized.
    pub cell_val_num: u32,
    /// Whether the values' order is meaningful.
    pub ordered: bool,
    /// The values, back to back.
    pub data: Vec<u8>,
    /// Start of each value in `data` (var-sized values).
    pub offsets: Option<Vec<u64>>,
}

/// A schema as parsed from JSON, before it is laid out for a format version.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaSpec {
    /// Dense (else sparse).
    pub dense: bool,
    /// The order of cells within a tile.
    pub cell_order: Layout,
    /// The order of tiles.
    pub tile_order: Layout,
    /// Cells per data tile of a sparse fragment.
    pub capacity: u64,
    /// Whether a sparse array keeps cells with equal coordinates.
    pub allows_dups: bool,
    /// The dimensions, in order.
    pub dims: Vec<DimSpec>,
    /// The attributes, in order.
    pub attrs: Vec<AttrSpec>,
    /// The filters of the coordinates (dimensions without their own).
    pub coords_filters: Vec<Filter>,
    /// The filters of var-sized fields' offsets.
    pub offsets_filters: Vec<Filter>,
    /// The filters of nullable fields' validity.
    pub validity_filters: Vec<Filter>,
    /// The enumerations attributes refer to.
    pub enumerations: Vec<EnumSpec>,
}

fn err(field: &str, what: impl Into<String>) -> WriteError {
    WriteError::schema(field, what)
}

fn obj<'a>(v: &'a Value, field: &str) -> WriteResult<&'a Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| err(field, format!("expected an object, got {v}")))
}

fn check_keys(m: &Map<String, Value>, field: &str, allowed: &[&str]) -> WriteResult<()> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(err(
                &format!("{field}.{k}"),
                format!("unknown key (expected one of: {})", allowed.join(", ")),
            ));
        }
    }
    Ok(())
}

fn req<'a>(m: &'a Map<String, Value>, key: &str, field: &str) -> WriteResult<&'a Value> {
    match m.get(key) {
        Some(v) => Ok(v),
        None => Err(err(&format!("{field}.{key}"), "missing key")),
    }
}

fn opt<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).filter(|v| !v.is_null())
}

fn string(v: &Value, field: &str) -> WriteResult<String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| err(field, format!("expected a string, got {v}")))
}

fn boolean(v: &Value, field: &str) -> WriteResult<bool> {
    v.as_bool()
        .ok_or_else(|| err(field, format!("expected true or false, got {v}")))
}

fn uint(v: &Value, field: &str) -> WriteResult<u64> {
    v.as_u64()
        .ok_or_else(|| err(field, format!("expected a non-negative integer, got {v}")))
}

/// A datatype by its format name (`INT32`, `STRING_UTF8`, `DATETIME_DAY`...).
pub fn parse_datatype(v: &Value, field: &str) -> WriteResult<Datatype> {
    let name = string(v, field)?;
    Datatype::ALL
        .iter()
        .copied()
        .find(|d| d.name().eq_ignore_ascii_case(&name))
        .ok_or_else(|| err(field, format!("unknown datatype {name:?}")))
}

fn parse_layout(v: &Value, field: &str, allowed: &[Layout]) -> WriteResult<Layout> {
    let name = string(v, field)?;
    let norm = name.to_ascii_uppercase().replace('-', "_");
    allowed
        .iter()
        .copied()
        .find(|l| l.name() == norm)
        .ok_or_else(|| {
            let names: Vec<String> = allowed
                .iter()
                .map(|l| l.name().to_ascii_lowercase().replace('_', "-"))
                .collect();
            err(
                field,
                format!("unknown layout {name:?} (expected {})", names.join(" or ")),
            )
        })
}

fn cell_val_num(v: Option<&Value>, field: &str) -> WriteResult<u32> {
    match v {
        None => Ok(1),
        Some(Value::String(s)) if s == "var" => Ok(u32::MAX),
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 && n < u64::from(u32::MAX) => Ok(n as u32),
            _ => Err(err(
                field,
                format!("expected a count of at least 1 or \"var\", got {v}"),
            )),
        },
    }
}

/// The compressor byte the engine writes for a compression filter type.
fn compressor_of(t: FilterType) -> Option<u8> {
    Some(match t {
        FilterType::Gzip => 1,
        FilterType::Zstd => 2,
        FilterType::Lz4 => 3,
        FilterType::Rle => 4,
        FilterType::Bzip2 => 5,
        FilterType::DoubleDelta => 6,
        FilterType::Dictionary => 7,
        FilterType::Delta => 8,
        _ => return None,
    })
}

/// A filter from its JSON (`{"type": "ZSTD", "level": 3}`, ...). `dims`
/// gives the WEBP filter its extents (the engine sets them from the tile
/// extents of the two dimensions).
pub fn parse_filter(v: &Value, field: &str, webp_extents: (u16, u16)) -> WriteResult<Filter> {
    let m = obj(v, field)?;
    let tf = format!("{field}.type");
    let name = string(req(m, "type", field)?, &tf)?;
    let t = FilterType::ALL
        .iter()
        .copied()
        .find(|t| t.name().eq_ignore_ascii_case(&name))
        .ok_or_else(|| err(&tf, format!("unknown filter {name:?}")))?;
    // An option's value: `default` when absent, else what `parse` makes of
    // it, or an error saying it is not `what`.
    fn number<T>(
        m: &serde_json::Map<String, Value>,
        field: &str,
        key: &str,
        default: T,
        what: &str,
        parse: impl Fn(&Value) -> Option<T>,
    ) -> WriteResult<T> {
        match opt(m, key) {
            None => Ok(default),
            Some(x) => parse(x).ok_or_else(|| {
                err(
                    &format!("{field}.{key}"),
                    format!("expected {what}, got {x}"),
                )
            }),
        }
    }
    let i32_of = |key: &str, default: i32| {
        number(m, field, key, default, "an integer", |x| {
            x.as_i64().and_then(|i| i32::try_from(i).ok())
        })
    };
    let u32_of = |key: &str, default: u32| {
        number(m, field, key, default, "a count", |x| {
            x.as_u64().and_then(|i| u32::try_from(i).ok())
        })
    };
    let f64_of = |key: &str, default: f64| number(m, field, key, default, "a number", json_float);
    let (keys, options, size): (&[&str], FilterOptions, u32) = match t {
        FilterType::None
        | FilterType::Bitshuffle
        | FilterType::Byteshuffle
        | FilterType::ChecksumMd5
        | FilterType::ChecksumSha256
        | FilterType::Xor => (&["type"], FilterOptions::NoOptions, 0),
        FilterType::Gzip
        | FilterType::Zstd
        | FilterType::Lz4
        | FilterType::Rle
        | FilterType::Bzip2
        | FilterType::Dictionary => (
            &["type", "level"],
            FilterOptions::Compressor(CompressorOptions {
                compressor_type: compressor_of(t).unwrap(),
                compression_level: i32_of("level", -1)?,
                reinterpret_datatype: None,
            }),
            5,
        ),
        FilterType::Delta | FilterType::DoubleDelta => {
            let r = match opt(m, "reinterpret_datatype") {
                None => Datatype::Any,
                Some(x) => parse_datatype(x, &format!("{field}.reinterpret_datatype"))?,
            };
            (
                &["type", "level", "reinterpret_datatype"],
                FilterOptions::Compressor(CompressorOptions {
                    compressor_type: compressor_of(t).unwrap(),
                    compression_level: i32_of("level", -1)?,
                    reinterpret_datatype: Some(r.value()),
                }),
                6,
            )
        }
        FilterType::BitWidthReduction => (
            &["type", "max_window_size"],
            FilterOptions::BitWidthReduction(BitWidthReductionOptions {
                max_window_size: u32_of("max_window_size", 256)?,
            }),
            4,
        ),
        FilterType::PositiveDelta => (
            &["type", "max_window_size"],
            FilterOptions::PositiveDelta(PositiveDeltaOptions {
                max_window_size: u32_of("max_window_size", 256)?,
            }),
            4,
        ),
        FilterType::ScaleFloat => {
            let bw = match opt(m, "byte_width") {
                None => 8,
                Some(x) => uint(x, &format!("{field}.byte_width"))?,
            };
            if ![1, 2, 4, 8].contains(&bw) {
                return Err(err(
                    &format!("{field}.byte_width"),
                    format!("must be 1, 2, 4 or 8, got {bw}"),
                ));
            }
            (
                &["type", "scale", "offset", "byte_width"],
                FilterOptions::FloatScale(FloatScaleOptions {
                    scale: f64_of("scale", 1.0)?,
                    offset: f64_of("offset", 0.0)?,
                    byte_width: bw,
                }),
                24,
            )
        }
        FilterType::Webp => {
            let format = match opt(m, "input_format") {
                None => WebpInputFormat::None,
                Some(x) => {
                    let n = string(x, &format!("{field}.input_format"))?;
                    let n = n.strip_prefix("WEBP_").unwrap_or(&n).to_ascii_uppercase();
                    WebpInputFormat::ALL
                        .iter()
                        .copied()
                        .find(|f| f.name() == n)
                        .ok_or_else(|| {
                            err(
                                &format!("{field}.input_format"),
                                format!("unknown WEBP input format {n:?}"),
                            )
                        })?
                }
            };
            let lossless = match opt(m, "lossless") {
                None => false,
                Some(x) => boolean(x, &format!("{field}.lossless"))?,
            };
            (
                &["type", "quality", "input_format", "lossless"],
                FilterOptions::Webp(WebpOptions {
                    quality: f64_of("quality", 100.0)? as f32,
                    input_format: format.value(),
                    lossless: u8::from(lossless),
                    y_extent: webp_extents.0,
                    x_extent: webp_extents.1,
                    padding: vec![0, 0],
                }),
                12,
            )
        }
        FilterType::Aes256Gcm => {
            return Err(err(
                &tf,
                "AES_256_GCM is the engine's internal encryption filter; encrypted arrays are not written",
            ))
        }
        FilterType::Deprecated => return Err(err(&tf, "filter type 17 is rejected by the engine")),
    };
    check_keys(m, field, keys)?;
    Ok(Filter {
        filter_type: t.value(),
        filter_options_size: size,
        filter_options: options,
    })
}

fn parse_filters(v: Option<&Value>, field: &str, webp: (u16, u16)) -> WriteResult<Vec<Filter>> {
    match v {
        None => Ok(Vec::new()),
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, f)| parse_filter(f, &format!("{field}[{i}]"), webp))
            .collect(),
        Some(other) => Err(err(
            field,
            format!("expected a list of filters, got {other}"),
        )),
    }
}

fn default_pipeline(t: FilterType) -> Vec<Filter> {
    vec![Filter {
        filter_type: t.value(),
        filter_options_size: 5,
        filter_options: FilterOptions::Compressor(CompressorOptions {
            compressor_type: compressor_of(t).unwrap(),
            compression_level: -1,
            reinterpret_datatype: None,
        }),
    }]
}

fn is_int_like(dt: Datatype) -> bool {
    !matches!(
        dt,
        Datatype::Float32
            | Datatype::Float64
            | Datatype::Char
            | Datatype::StringAscii
            | Datatype::StringUtf8
            | Datatype::StringUtf16
            | Datatype::StringUtf32
            | Datatype::StringUcs2
            | Datatype::StringUcs4
            | Datatype::Any
            | Datatype::Blob
            | Datatype::Bool
            | Datatype::GeomWkb
            | Datatype::GeomWkt
    )
}

/// Decoded bound of a dimension, for range checks.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
enum Num {
    I(i128),
    F(f64),
}

fn num_of(dt: Datatype, b: &[u8]) -> Num {
    match dt {
        Datatype::Float32 => Num::F(f64::from(f32::from_le_bytes(b[..4].try_into().unwrap()))),
        Datatype::Float64 => Num::F(f64::from_le_bytes(b[..8].try_into().unwrap())),
        _ => Num::I(super::order::int_value(dt, b)),
    }
}

fn parse_dimension(v: &Value, field: &str, hilbert: bool) -> WriteResult<DimSpec> {
    let m = obj(v, field)?;
    check_keys(
        m,
        field,
        &[
            "name",
            "datatype",
            "cell_val_num",
            "domain",
            "tile_extent",
            "filters",
        ],
    )?;
    let name = string(req(m, "name", field)?, &format!("{field}.name"))?;
    let dtf = format!("{field}.datatype");
    let datatype = parse_datatype(req(m, "datatype", field)?, &dtf)?;
    let cvn = cell_val_num(opt(m, "cell_val_num"), &format!("{field}.cell_val_num"))?;
    let var = datatype == Datatype::StringAscii;
    if var {
        if cvn != u32::MAX {
            return Err(err(
                &format!("{field}.cell_val_num"),
                "a STRING_ASCII dimension is var-sized (\"var\")",
            ));
        }
        if opt(m, "domain").is_some() || opt(m, "tile_extent").is_some() {
            return Err(err(
                &format!("{field}.domain"),
                "a string dimension has no domain and no tile extent (null)",
            ));
        }
        return Ok(DimSpec {
            name,
            datatype,
            var: true,
            domain: Vec::new(),
            tile_extent: None,
            filters: None,
        });
    }
    let numeric =
        is_int_like(datatype) || matches!(datatype, Datatype::Float32 | Datatype::Float64);
    if !numeric {
        return Err(err(
            &dtf,
            format!(
                "{} is not a dimension datatype (integers, floats, dates, times, STRING_ASCII)",
                datatype.name()
            ),
        ));
    }
    if cvn != 1 {
        return Err(err(
            &format!("{field}.cell_val_num"),
            "a numeric dimension has one value per cell",
        ));
    }
    let df = format!("{field}.domain");
    let dom = req(m, "domain", field)?
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| err(&df, "expected [low, high]"))?;
    let mut domain = Vec::new();
    for (i, b) in dom.iter().enumerate() {
        push_value(datatype, b, &mut domain).map_err(|e| err(&format!("{df}[{i}]"), e))?;
    }
    let w = datatype.size() as usize;
    let (lo, hi) = (
        num_of(datatype, &domain[..w]),
        num_of(datatype, &domain[w..]),
    );
    if lo > hi
        || matches!(lo, Num::F(f) if !f.is_finite())
        || matches!(hi, Num::F(f) if !f.is_finite())
    {
        return Err(err(
            &df,
            "the low bound must be finite and not above the high bound",
        ));
    }
    let tf = format!("{field}.tile_extent");
    let tile_extent = match opt(m, "tile_extent") {
        Some(x) => {
            let mut e = Vec::new();
            push_value(datatype, x, &mut e).map_err(|e| err(&tf, e))?;
            let ext = num_of(datatype, &e);
            let ok = match (ext, lo, hi) {
                (Num::I(x), Num::I(l), Num::I(h)) => x > 0 && x <= h - l + 1,
                (Num::F(x), Num::F(l), Num::F(h)) => x > 0.0 && x <= h - l,
                _ => false,
            };
            if !ok {
                return Err(err(&tf, "must be above 0 and at most the domain's range"));
            }
            Some(e)
        }
        // The engine sets a missing extent to the domain's range (except
        // with Hilbert cell order).
        None if hilbert => None,
        None => {
            let mut e = Vec::new();
            let ext = match (lo, hi) {
                (Num::I(l), Num::I(h)) => serde_json::json!(h - l + 1),
                (Num::F(l), Num::F(h)) => serde_json::json!(h - l),
                _ => unreachable!(),
            };
            push_value(datatype, &ext, &mut e).map_err(|_| {
                err(
                    &tf,
                    "the domain's range does not fit the datatype; give a tile extent",
                )
            })?;
            Some(e)
        }
    };
    Ok(DimSpec {
        name,
        datatype,
        var: false,
        domain,
        tile_extent,
        filters: None,
    })
}

fn parse_attribute(v: &Value, field: &str, webp: (u16, u16)) -> WriteResult<AttrSpec> {
    let m = obj(v, field)?;
    check_keys(
        m,
        field,
        &[
            "name",
            "datatype",
            "cell_val_num",
            "nullable",
            "fill_value",
            "fill_value_validity",
            "filters",
            "enumeration",
        ],
    )?;
    let name = string(req(m, "name", field)?, &format!("{field}.name"))?;
    let datatype = parse_datatype(req(m, "datatype", field)?, &format!("{field}.datatype"))?;
    let cvn = cell_val_num(opt(m, "cell_val_num"), &format!("{field}.cell_val_num"))?;
    let nullable = match opt(m, "nullable") {
        Some(x) => boolean(x, &format!("{field}.nullable"))?,
        None => false,
    };
    let var = (cvn != u32::MAX).then_some(cvn);
    let fill_value = match opt(m, "fill_value") {
        Some(x) => {
            cell_bytes(datatype, var, x).map_err(|e| err(&format!("{field}.fill_value"), e))?
        }
        None => {
            let one = default_fill_value(datatype);
            one.repeat(var.unwrap_or(1) as usize)
        }
    };
    if fill_value.is_empty() {
        return Err(err(
            &format!("{field}.fill_value"),
            "a fill value cannot be empty",
        ));
    }
    let fill_value_validity = match opt(m, "fill_value_validity") {
        Some(x) => boolean(x, &format!("{field}.fill_value_validity"))?,
        None => false,
    };
    let enumeration = match opt(m, "enumeration") {
        Some(x) => Some(string(x, &format!("{field}.enumeration"))?),
        None => None,
    };
    let filters = parse_filters(opt(m, "filters"), &format!("{field}.filters"), webp)?;
    if filters
        .iter()
        .any(|f| f.filter_type == FilterType::Webp.value())
        && datatype != Datatype::Uint8
    {
        return Err(err(
            &format!("{field}.filters"),
            "the WEBP filter takes UINT8 attributes",
        ));
    }
    Ok(AttrSpec {
        name,
        datatype,
        cell_val_num: cvn,
        nullable,
        fill_value,
        fill_value_validity,
        filters,
        enumeration,
    })
}

fn parse_enumeration(v: &Value, field: &str) -> WriteResult<EnumSpec> {
    let m = obj(v, field)?;
    check_keys(
        m,
        field,
        &[
            "name",
            "filename",
            "datatype",
            "cell_val_num",
            "ordered",
            "values",
        ],
    )?;
    let name = string(req(m, "name", field)?, &format!("{field}.name"))?;
    if !m.contains_key("values") {
        return Err(err(
            &format!("{field}.values"),
            format!(
                "enumeration {name:?} has no values: give datatype, cell_val_num, ordered \
                 and values (as `inspect --json` of the array prints them)"
            ),
        ));
    }
    let datatype = parse_datatype(req(m, "datatype", field)?, &format!("{field}.datatype"))?;
    let cvn = cell_val_num(opt(m, "cell_val_num"), &format!("{field}.cell_val_num"))?;
    let ordered = match opt(m, "ordered") {
        Some(x) => boolean(x, &format!("{field}.ordered"))?,
        None => false,
    };
    let vf = format!("{field}.values");
    let values = req(m, "values", field)?
        .as_array()
        .ok_or_else(|| err(&vf, "expected a list"))?;
    let mut data = Vec::new();
    let mut offsets = Vec::new();
    let var = (cvn != u32::MAX).then_some(cvn);
    for (i, x) in values.iter().enumerate() {
        offsets.push(data.len() as u64);
        let b = cell_bytes(datatype, var, x).map_err(|e| err(&format!("{vf}[{i}]"), e))?;
        data.extend_from_slice(&b);
    }
    let path_name = match opt(m, "filename") {
        Some(x) => {
            let f = string(x, &format!("{field}.filename"))?;
            if f.is_empty() || f.contains('/') || f.contains('\\') {
                return Err(err(&format!("{field}.filename"), "not a file name"));
            }
            f
        }
        None => format!("__{}_0", util::random_label()),
    };
    Ok(EnumSpec {
        name,
        path_name,
        datatype,
        cell_val_num: cvn,
        ordered,
        data,
        offsets: var.is_none().then_some(offsets),
    })
}

/// Parses and checks the JSON of a schema.
pub fn build_schema(json: &Value) -> WriteResult<SchemaSpec> {
    let m = obj(json, "schema")?;
    check_keys(
        m,
        "schema",
        &[
            "version",
            "array_type",
            "cell_order",
            "tile_order",
            "capacity",
            "allows_duplicates",
            "dimensions",
            "attributes",
            "coords_filters",
            "offsets_filters",
            "validity_filters",
            "enumerations",
        ],
    )?;
    let at = string(req(m, "array_type", "schema")?, "schema.array_type")?;
    let dense = match at.to_ascii_lowercase().as_str() {
        "dense" => true,
        "sparse" => false,
        _ => {
            return Err(err(
                "schema.array_type",
                format!("expected \"dense\" or \"sparse\", got {at:?}"),
            ))
        }
    };
    let cell_order = match opt(m, "cell_order") {
        Some(x) => parse_layout(
            x,
            "schema.cell_order",
            &[Layout::RowMajor, Layout::ColMajor, Layout::Hilbert],
        )?,
        None => Layout::RowMajor,
    };
    let tile_order = match opt(m, "tile_order") {
        Some(x) => parse_layout(
            x,
            "schema.tile_order",
            &[Layout::RowMajor, Layout::ColMajor],
        )?,
        None => Layout::RowMajor,
    };
    if dense && cell_order == Layout::Hilbert {
        return Err(err(
            "schema.cell_order",
            "dense arrays cannot have Hilbert cell order",
        ));
    }
    let capacity = match opt(m, "capacity") {
        Some(x) => uint(x, "schema.capacity")?,
        None => 10000,
    };
    if capacity == 0 {
        return Err(err("schema.capacity", "must be above 0"));
    }
    let allows_dups = match opt(m, "allows_duplicates") {
        Some(x) => boolean(x, "schema.allows_duplicates")?,
        None => false,
    };
    if dense && allows_dups {
        return Err(err(
            "schema.allows_duplicates",
            "dense arrays cannot allow duplicates",
        ));
    }
    let hilbert = cell_order == Layout::Hilbert;
    let dims_v = req(m, "dimensions", "schema")?
        .as_array()
        .ok_or_else(|| err("schema.dimensions", "expected a list"))?;
    if dims_v.is_empty() {
        return Err(err(
            "schema.dimensions",
            "an array needs at least one dimension",
        ));
    }
    if hilbert && dims_v.len() > 15 {
        return Err(err(
            "schema.dimensions",
            "Hilbert order takes at most 15 dimensions",
        ));
    }
    let mut dims = Vec::new();
    for (i, d) in dims_v.iter().enumerate() {
        dims.push(parse_dimension(
            d,
            &format!("schema.dimensions[{i}]"),
            hilbert,
        )?);
    }
    if dense {
        let t0 = dims[0].datatype;
        for (i, d) in dims.iter().enumerate() {
            if !is_int_like(d.datatype) {
                return Err(err(
                    &format!("schema.dimensions[{i}].datatype"),
                    format!(
                        "dense arrays take integer, date or time dimensions, not {}",
                        d.datatype.name()
                    ),
                ));
            }
            if d.datatype != t0 {
                return Err(err(
                    &format!("schema.dimensions[{i}].datatype"),
                    "the dimensions of a dense array have one datatype",
                ));
            }
        }
    }
    // The WEBP filter's extents: the tile extents of dimensions 0 (y) and 1 (x).
    let ext16 = |d: Option<&DimSpec>| -> u16 {
        d.and_then(|d| {
            d.tile_extent
                .as_ref()
                .map(|e| super::order::int_value(d.datatype, e))
        })
        .map_or(0, |e| e.clamp(0, i128::from(u16::MAX)) as u16)
    };
    let webp = (ext16(dims.first()), ext16(dims.get(1)));
    let coords_filters = match opt(m, "coords_filters") {
        Some(x) => parse_filters(Some(x), "schema.coords_filters", webp)?,
        None => default_pipeline(FilterType::Zstd),
    };
    for (i, (d, v)) in dims.iter_mut().zip(dims_v).enumerate() {
        let field = format!("schema.dimensions[{i}].filters");
        let own = parse_filters(v.get("filters").filter(|x| !x.is_null()), &field, webp)?;
        // schema_json shows the coords filters for a dimension without its own.
        d.filters = (v.get("filters").is_some_and(|x| !x.is_null()) && own != coords_filters)
            .then_some(own);
    }
    let offsets_filters = match opt(m, "offsets_filters") {
        Some(x) => parse_filters(Some(x), "schema.offsets_filters", webp)?,
        None => default_pipeline(FilterType::Zstd),
    };
    let validity_filters = match opt(m, "validity_filters") {
        Some(x) => parse_filters(Some(x), "schema.validity_filters", webp)?,
        None => default_pipeline(FilterType::Rle),
    };
    let attrs_v = req(m, "attributes", "schema")?
        .as_array()
        .ok_or_else(|| err("schema.attributes", "expected a list"))?;
    if dense && attrs_v.is_empty() {
        return Err(err(
            "schema.attributes",
            "a dense array needs at least one attribute",
        ));
    }
    let mut attrs = Vec::new();
    for (i, a) in attrs_v.iter().enumerate() {
        let field = format!("schema.attributes[{i}]");
        let a = parse_attribute(a, &field, webp)?;
        if a.filters
            .iter()
            .any(|f| f.filter_type == FilterType::Webp.value())
            && (!dense || dims.len() != 2)
        {
            return Err(err(
                &format!("{field}.filters"),
                "the WEBP filter takes dense arrays of two dimensions",
            ));
        }
        attrs.push(a);
    }
    let mut names = std::collections::BTreeSet::new();
    for (i, n) in dims
        .iter()
        .map(|d| &d.name)
        .chain(attrs.iter().map(|a| &a.name))
        .enumerate()
    {
        let field = if i < dims.len() {
            format!("schema.dimensions[{i}].name")
        } else {
            format!("schema.attributes[{}].name", i - dims.len())
        };
        if !names.insert(n.clone()) {
            return Err(err(&field, format!("the name {n:?} is used twice")));
        }
        if n.starts_with("__") {
            return Err(err(&field, "names starting with \"__\" are reserved"));
        }
        if n.is_empty() && i < dims.len() {
            return Err(err(&field, "a dimension needs a name"));
        }
    }
    let mut enumerations = Vec::new();
    if let Some(list) = opt(m, "enumerations") {
        let list = list
            .as_array()
            .ok_or_else(|| err("schema.enumerations", "expected a list"))?;
        for (i, e) in list.iter().enumerate() {
            enumerations.push(parse_enumeration(e, &format!("schema.enumerations[{i}]"))?);
        }
    }
    for (i, a) in attrs.iter().enumerate() {
        if let Some(e) = &a.enumeration {
            if !enumerations.iter().any(|x| &x.name == e) {
                return Err(err(
                    &format!("schema.attributes[{i}].enumeration"),
                    format!("no enumeration {e:?} in schema.enumerations"),
                ));
            }
            if !is_int_like(a.datatype) || a.cell_val_num != 1 {
                return Err(err(
                    &format!("schema.attributes[{i}].enumeration"),
                    "an attribute with an enumeration holds one integer per cell",
                ));
            }
        }
    }
    Ok(SchemaSpec {
        dense,
        cell_order,
        tile_order,
        capacity,
        allows_dups,
        dims,
        attrs,
        coords_filters,
        offsets_filters,
        validity_filters,
        enumerations,
    })
}

/// A filter as a pipeline of format `version` stores it: DELTA keeps its
/// reinterpret datatype from version 19, DOUBLE_DELTA from version 20.
fn filter_for_version(f: &Filter, version: u32, field: &str) -> WriteResult<Filter> {
    let mut f = f.clone();
    let t = FilterType::from_value(f.filter_type);
    let since = match t {
        Some(FilterType::Delta) => 19,
        Some(FilterType::DoubleDelta) => 20,
        _ => 0,
    };
    if let FilterOptions::Compressor(o) = &mut f.filter_options {
        if o.reinterpret_datatype.is_some() && version < since {
            if o.reinterpret_datatype != Some(Datatype::Any.value()) {
                return Err(err(
                    field,
                    format!("a reinterpret datatype needs format version {since} or later"),
                ));
            }
            o.reinterpret_datatype = None;
            f.filter_options_size = 5;
        }
    }
    Ok(f)
}

fn pipeline(filters: &[Filter], version: u32, field: &str) -> WriteResult<FilterPipeline> {
    Ok(FilterPipeline {
        max_chunk_size: 65536,
        num_filters: filters.len() as u32,
        filters: filters
            .iter()
            .enumerate()
            .map(|(i, f)| filter_for_version(f, version, &format!("{field}[{i}]")))
            .collect::<WriteResult<_>>()?,
    })
}

impl SchemaSpec {
    /// The `ArraySchema` table of format `version` (every field the version
    /// has is set; the current domain, from version 22, is empty).
    pub fn to_table(&self, version: u32) -> WriteResult<ArraySchema> {
        if !(MIN_WRITE_VERSION..=MAX_WRITE_VERSION).contains(&version) {
            return Err(WriteError::Unsupported(format!(
                "writing format version {version} (this crate writes {MIN_WRITE_VERSION} to {MAX_WRITE_VERSION})"
            )));
        }
        if version < 20 && !self.enumerations.is_empty() {
            return Err(err(
                "schema.enumerations",
                "enumerations need format version 20 or later",
            ));
        }
        let at = |v: u32| version >= v;
        let dimensions = self
            .dims
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let field = format!("schema.dimensions[{i}].filters");
                Ok(Dimension {
                    name_length: d.name.len() as u32,
                    name: d.name.as_bytes().to_vec(),
                    datatype: Some(d.datatype.value()),
                    cell_val_num: Some(if d.var { u32::MAX } else { 1 }),
                    filters: Some(pipeline(
                        d.filters.as_deref().unwrap_or(&[]),
                        version,
                        &field,
                    )?),
                    domain_size: Some(d.domain.len() as u64),
                    domain: d.domain.clone(),
                    null_tile_extent: u8::from(d.tile_extent.is_none()),
                    tile_extent: d.tile_extent.clone().unwrap_or_default(),
                })
            })
            .collect::<WriteResult<Vec<_>>>()?;
        let attributes = self
            .attrs
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let field = format!("schema.attributes[{i}].filters");
                if version < 20 && a.enumeration.is_some() {
                    return Err(err(&field, "enumerations need format version 20 or later"));
                }
                let enumeration = a.enumeration.clone().unwrap_or_default().into_bytes();
                Ok(Attribute {
                    name_length: a.name.len() as u32,
                    name: a.name.as_bytes().to_vec(),
                    datatype: a.datatype.value(),
                    cell_val_num: a.cell_val_num,
                    filters: pipeline(&a.filters, version, &field)?,
                    fill_value_size: Some(a.fill_value.len() as u64),
                    fill_value: Some(a.fill_value.clone()),
                    nullable: Some(u8::from(a.nullable)),
                    fill_value_validity: Some(u8::from(a.fill_value_validity)),
                    order: at(17).then_some(0),
                    enumeration_name_length: at(20).then_some(enumeration.len() as u32),
                    enumeration_name: at(20).then_some(enumeration),
                })
            })
            .collect::<WriteResult<Vec<_>>>()?;
        let enumerations: Vec<EnumerationEntry> = self
            .enumerations
            .iter()
            .map(|e| EnumerationEntry {
                name_length: e.name.len() as u32,
                name: e.name.as_bytes().to_vec(),
                filename_length: e.path_name.len() as u32,
                filename: e.path_name.as_bytes().to_vec(),
            })
            .collect();
        Ok(ArraySchema {
            array_version: version,
            allows_dups: Some(u8::from(self.allows_dups)),
            array_type: if self.dense {
                ArrayType::Dense.value()
            } else {
                ArrayType::Sparse.value()
            },
            tile_order: self.tile_order.value(),
            cell_order: self.cell_order.value(),
            capacity: self.capacity,
            coords_filters: pipeline(&self.coords_filters, version, "schema.coords_filters")?,
            offsets_filters: pipeline(&self.offsets_filters, version, "schema.offsets_filters")?,
            validity_filters: Some(pipeline(
                &self.validity_filters,
                version,
                "schema.validity_filters",
            )?),
            domain: Domain {
                domain_datatype: None,
                num_dimensions: dimensions.len() as u32,
                dimensions,
            },
            num_attributes: attributes.len() as u32,
            attributes,
            num_labels: at(18).then_some(0),
            labels: at(18).then(Vec::new),
            num_enumerations: at(20).then_some(enumerations.len() as u32),
            enumerations: at(20).then_some(enumerations),
            current_domain: at(22).then_some(CurrentDomain {
                version_number: 0,
                empty: 1,
                current_domain_type: None,
                ndrectangle: None,
            }),
        })
    }

    /// The enumeration tables (one file each in `__schema/__enumerations`).
    pub fn enumeration_tables(&self) -> Vec<Enumeration> {
        self.enumerations
            .iter()
            .map(|e| {
                let offsets = e
                    .offsets
                    .as_ref()
                    .map(|o| o.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
                Enumeration {
                    version_number: 0,
                    name_length: e.name.len() as u32,
                    name: e.name.as_bytes().to_vec(),
                    path_name_length: e.path_name.len() as u32,
                    path_name: e.path_name.as_bytes().to_vec(),
                    datatype: e.datatype.value(),
                    cell_val_num: e.cell_val_num,
                    ordered: u8::from(e.ordered),
                    data_size: e.data.len() as u64,
                    data: e.data.clone(),
                    offsets_size: offsets.as_ref().map(|o| o.len() as u64),
                    offsets,
                }
            })
            .collect()
    }
}

/// How to create an array.
#[derive(Clone, Copy)]
pub struct CreateOptions {
    /// Format version of the schema (10 to 22).
    pub version: u32,
    /// Timestamp of the schema file (default: now).
    pub timestamp: Option<u64>,
    /// Create an AES-256-GCM encrypted array with this key (the bytes of
    /// TileDB's `sm.encryption_key`): the schema and enumeration files are
    /// encrypted generic tiles. Every later write and read needs the key.
    pub encryption_key: Option<[u8; 32]>,
}

impl Default for CreateOptions {
    fn default() -> Self {
        CreateOptions {
            version: FORMAT_VERSION,
            timestamp: None,
            encryption_key: None,
        }
    }
}

impl std::fmt::Debug for CreateOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("CreateOptions")
            .field("version", &self.version)
            .field("timestamp", &self.timestamp)
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

/// Creates an array at `path` (format version 22) from the JSON of a schema.
/// Fails if something is already there (an empty folder is fine).
pub fn create_array(path: &Path, schema_json: &Value) -> WriteResult<()> {
    create_array_with(path, schema_json, &CreateOptions::default()).map(|_| ())
}

fn exists_nonempty(path: &Path) -> bool {
    match std::fs::read_dir(path) {
        Ok(mut rd) => rd.next().is_some(),
        Err(_) => path.exists(),
    }
}

/// [`create_array`] with options; returns the schema file's path. The array
/// is assembled in a hidden sibling folder and renamed into place, so it
/// appears whole or not at all.
pub fn create_array_with(
    path: &Path,
    schema_json: &Value,
    opts: &CreateOptions,
) -> WriteResult<PathBuf> {
    let spec = build_schema(schema_json)?;
    create_array_from_spec(path, &spec, opts)
}

/// [`create_array_with`] from a parsed schema.
pub fn create_array_from_spec(
    path: &Path,
    spec: &SchemaSpec,
    opts: &CreateOptions,
) -> WriteResult<PathBuf> {
    let version = opts.version;
    let key = opts.encryption_key;
    let table = spec.to_table(version)?;
    if exists_nonempty(path) {
        return Err(WriteError::Array {
            path: path.to_path_buf(),
            what: "already exists".into(),
        });
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    util::create_dir(&parent)?;
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "array".into());
    let tmp = parent.join(format!(".{base}.tmp-{}", util::random_label()));
    let result = (|| -> WriteResult<PathBuf> {
        util::create_dir(&tmp)?;
        let mut dirs = vec!["__schema", "__meta"];
        if version >= 12 {
            dirs.extend(["__fragments", "__commits", "__fragment_meta"]);
        }
        if version >= 18 {
            dirs.push("__labels");
        }
        if version >= 20 {
            dirs.push("__schema/__enumerations");
        }
        for d in &dirs {
            util::create_dir(&tmp.join(d))?;
        }
        for e in spec.enumeration_tables() {
            let name = String::from_utf8_lossy(&e.path_name).into_owned();
            let file = tmp.join("__schema/__enumerations").join(name);
            util::write_new_synced(&file, &generic_tile(&encode(&e), version, key)?)?;
        }
        let t = opts.timestamp.unwrap_or_else(util::now_ms);
        let name = util::timestamped_name(t, t, None);
        let schema_file = tmp.join("__schema").join(&name);
        util::write_new_synced(&schema_file, &generic_tile(&encode(&table), version, key)?)?;
        for d in dirs.iter().rev() {
            util::sync_dir(&tmp.join(d))?;
        }
        util::sync_dir(&tmp)?;
        Ok(path.join("__schema").join(name))
    })();
    let schema_path = match result {
        Ok(p) => p,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    if path.exists() {
        // An empty folder: rename replaces it.
        let _ = std::fs::remove_dir(path);
    }
    if let Err(e) = util::rename_synced(&tmp, path) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    Ok(schema_path)
}
