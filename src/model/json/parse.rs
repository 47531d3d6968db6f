//! JSON to a schema, every key checked.

use serde_json::{json, Map, Value as Json};

use crate::format::{self, FilterType};
use crate::model::value::from_json::{cell_bytes, json_float, push_value};
use crate::model::{
    default_fill_value, ArrayType, Attribute, CellValNum, CurrentDomain, DataOrder, Datatype,
    Dimension, DimensionLabel, DomainRange, Enumeration, Filter, Layout, ModelError, Schema, Value,
    WebpFormat,
};

fn err(field: &str, what: impl Into<String>) -> ModelError {
    ModelError::Schema {
        field: field.to_string(),
        what: what.into(),
    }
}

type Parsed<T> = Result<T, ModelError>;

fn obj<'a>(v: &'a Json, field: &str) -> Parsed<&'a Map<String, Json>> {
    v.as_object()
        .ok_or_else(|| err(field, format!("expected an object, got {v}")))
}

fn check_keys(m: &Map<String, Json>, field: &str, allowed: &[&str]) -> Parsed<()> {
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

fn req<'a>(m: &'a Map<String, Json>, key: &str, field: &str) -> Parsed<&'a Json> {
    m.get(key)
        .ok_or_else(|| err(&format!("{field}.{key}"), "missing key"))
}

fn opt<'a>(m: &'a Map<String, Json>, key: &str) -> Option<&'a Json> {
    m.get(key).filter(|v| !v.is_null())
}

fn string(v: &Json, field: &str) -> Parsed<String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| err(field, format!("expected a string, got {v}")))
}

fn boolean(v: &Json, field: &str) -> Parsed<bool> {
    v.as_bool()
        .ok_or_else(|| err(field, format!("expected true or false, got {v}")))
}

fn uint(v: &Json, field: &str) -> Parsed<u64> {
    v.as_u64()
        .ok_or_else(|| err(field, format!("expected a non-negative integer, got {v}")))
}

fn opt_bool(m: &Map<String, Json>, key: &str, field: &str) -> Parsed<bool> {
    opt(m, key).map_or(Ok(false), |x| boolean(x, &format!("{field}.{key}")))
}

/// A datatype by its format name (`INT32`, `STRING_UTF8`, `DATETIME_DAY`...).
pub fn parse_datatype(v: &Json, field: &str) -> Parsed<Datatype> {
    let name = string(v, field)?;
    Datatype::ALL
        .iter()
        .copied()
        .find(|d| d.name().eq_ignore_ascii_case(&name))
        .ok_or_else(|| err(field, format!("unknown datatype {name:?}")))
}

fn parse_layout(v: &Json, field: &str, allowed: &[Layout]) -> Parsed<Layout> {
    let name = string(v, field)?;
    let norm = name.to_ascii_uppercase().replace('-', "_");
    allowed
        .iter()
        .copied()
        .find(|l| format::Layout::from(*l).name() == norm)
        .ok_or_else(|| {
            let names: Vec<String> = allowed
                .iter()
                .map(|l| {
                    format::Layout::from(*l)
                        .name()
                        .to_ascii_lowercase()
                        .replace('_', "-")
                })
                .collect();
            err(
                field,
                format!("unknown layout {name:?} (expected {})", names.join(" or ")),
            )
        })
}

fn parse_cell_val_num(v: Option<&Json>, field: &str) -> Parsed<CellValNum> {
    match v {
        None => Ok(CellValNum::single()),
        Some(Json::String(s)) if s == "var" => Ok(CellValNum::Var),
        Some(v) => v
            .as_u64()
            .filter(|&n| n < u64::from(u32::MAX))
            .and_then(|n| CellValNum::from_raw(n as u32))
            .ok_or_else(|| {
                err(
                    field,
                    format!("expected a count of at least 1 or \"var\", got {v}"),
                )
            }),
    }
}

/// A filter from its JSON (`{"type": "ZSTD", "level": 3}`, ...).
pub fn parse_filter(v: &Json, field: &str) -> Parsed<Filter> {
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
    let number = |key: &str, what: &str, parse: &dyn Fn(&Json) -> Option<f64>| match opt(m, key) {
        None => Ok(None),
        Some(x) => parse(x).map(Some).ok_or_else(|| {
            err(
                &format!("{field}.{key}"),
                format!("expected {what}, got {x}"),
            )
        }),
    };
    let level = || -> Parsed<i32> {
        Ok(number("level", "an integer", &|x| {
            x.as_i64()
                .and_then(|i| i32::try_from(i).ok())
                .map(f64::from)
        })?
        .map_or(-1, |f| f as i32))
    };
    let window = || -> Parsed<u32> {
        Ok(number("max_window_size", "a count", &|x| {
            x.as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .map(f64::from)
        })?
        .map_or(256, |f| f as u32))
    };
    let float = |key: &str, default: f64| -> Parsed<f64> {
        Ok(number(key, "a number", &json_float)?.unwrap_or(default))
    };
    let (keys, filter): (&[&str], Filter) = match t {
        FilterType::None => (&["type"], Filter::None),
        FilterType::Bitshuffle => (&["type"], Filter::BitShuffle),
        FilterType::Byteshuffle => (&["type"], Filter::ByteShuffle),
        FilterType::ChecksumMd5 => (&["type"], Filter::ChecksumMd5),
        FilterType::ChecksumSha256 => (&["type"], Filter::ChecksumSha256),
        FilterType::Xor => (&["type"], Filter::Xor),
        FilterType::Gzip => (&["type", "level"], Filter::Gzip { level: level()? }),
        FilterType::Zstd => (&["type", "level"], Filter::Zstd { level: level()? }),
        FilterType::Lz4 => (&["type", "level"], Filter::Lz4 { level: level()? }),
        FilterType::Rle => (&["type", "level"], Filter::Rle { level: level()? }),
        FilterType::Bzip2 => (&["type", "level"], Filter::Bzip2 { level: level()? }),
        FilterType::Dictionary => (&["type", "level"], Filter::Dictionary { level: level()? }),
        FilterType::Delta | FilterType::DoubleDelta => {
            let reinterpret = Some(match opt(m, "reinterpret_datatype") {
                None => Datatype::Any,
                Some(x) => parse_datatype(x, &format!("{field}.reinterpret_datatype"))?,
            });
            let level = level()?;
            let f = if t == FilterType::Delta {
                Filter::Delta { level, reinterpret }
            } else {
                Filter::DoubleDelta { level, reinterpret }
            };
            (&["type", "level", "reinterpret_datatype"], f)
        }
        FilterType::BitWidthReduction => (
            &["type", "max_window_size"],
            Filter::BitWidthReduction {
                max_window_size: window()?,
            },
        ),
        FilterType::PositiveDelta => (
            &["type", "max_window_size"],
            Filter::PositiveDelta {
                max_window_size: window()?,
            },
        ),
        FilterType::ScaleFloat => {
            let byte_width = match opt(m, "byte_width") {
                None => 8,
                Some(x) => uint(x, &format!("{field}.byte_width"))?,
            };
            if ![1, 2, 4, 8].contains(&byte_width) {
                return Err(err(
                    &format!("{field}.byte_width"),
                    format!("must be 1, 2, 4 or 8, got {byte_width}"),
                ));
            }
            (
                &["type", "scale", "offset", "byte_width"],
                Filter::ScaleFloat {
                    scale: float("scale", 1.0)?,
                    offset: float("offset", 0.0)?,
                    byte_width,
                },
            )
        }
        FilterType::Webp => {
            let input_format = match opt(m, "input_format") {
                None => WebpFormat::None,
                Some(x) => {
                    let n = string(x, &format!("{field}.input_format"))?;
                    let n = n.strip_prefix("WEBP_").unwrap_or(&n).to_ascii_uppercase();
                    format::WebpInputFormat::ALL
                        .iter()
                        .find(|f| f.name() == n)
                        .and_then(|f| WebpFormat::from_code(*f))
                        .ok_or_else(|| {
                            err(
                                &format!("{field}.input_format"),
                                format!("unknown WEBP input format {n:?}"),
                            )
                        })?
                }
            };
            (
                &["type", "quality", "input_format", "lossless"],
                Filter::Webp {
                    quality: float("quality", 100.0)? as f32,
                    input_format,
                    lossless: opt_bool(m, "lossless", field)?,
                },
            )
        }
        FilterType::Aes256Gcm => {
            return Err(err(
                &tf,
                "AES_256_GCM is the engine's internal encryption filter; encrypted arrays are not written",
            ))
        }
        FilterType::Deprecated => return Err(err(&tf, "filter type 17 is rejected by the engine")),
        // FilterType::ALL lists the known types only.
        other => {
            return Err(err(
                &tf,
                format!("{} is not a filter type", other.value()),
            ))
        }
    };
    check_keys(m, field, keys)?;
    Ok(filter)
}

fn parse_filters(v: Option<&Json>, field: &str) -> Parsed<Vec<Filter>> {
    match v {
        None => Ok(Vec::new()),
        Some(Json::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, f)| parse_filter(f, &format!("{field}[{i}]")))
            .collect(),
        Some(other) => Err(err(
            field,
            format!("expected a list of filters, got {other}"),
        )),
    }
}

/// Integers, dates and times: what dense arrays and enumerated attributes take.
fn is_int_like(dt: Datatype) -> bool {
    dt.is_time() || (dt.is_integer() && dt != Datatype::Bool)
}

/// One value of `dt` from its JSON.
fn one_value(dt: Datatype, v: &Json, field: &str) -> Parsed<Value> {
    let mut b = Vec::new();
    push_value(dt, v, &mut b).map_err(|e| err(field, e))?;
    Value::from_le_bytes(dt, &b).ok_or_else(|| err(field, "not one value"))
}

/// A `[low, high]` range of a dimension from its JSON (strings for
/// var-sized dimensions).
fn parse_range(dt: Datatype, var: bool, v: &Json, field: &str) -> Parsed<DomainRange> {
    let pair = v
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| err(field, "expected [low, high]"))?;
    let bound = |i: usize| -> Parsed<Vec<u8>> {
        let f = format!("{field}[{i}]");
        if var {
            cell_bytes(dt, None, &pair[i]).map_err(|e| err(&f, e))
        } else {
            Ok(one_value(dt, &pair[i], &f)?.to_le_bytes())
        }
    };
    let (lo, hi) = (bound(0)?, bound(1)?);
    DomainRange::from_le_bytes(dt, var, &lo, &hi).ok_or_else(|| err(field, "not two values"))
}

fn parse_dimension(v: &Json, field: &str, hilbert: bool) -> Parsed<Dimension> {
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
    let cvn = parse_cell_val_num(opt(m, "cell_val_num"), &format!("{field}.cell_val_num"))?;
    if datatype == Datatype::StringAscii {
        if !cvn.is_var() {
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
        return Ok(Dimension::string(name));
    }
    let numeric = is_int_like(datatype) || datatype.is_float();
    if !numeric {
        return Err(err(
            &dtf,
            format!(
                "{} is not a dimension datatype (integers, floats, dates, times, STRING_ASCII)",
                datatype.name()
            ),
        ));
    }
    if cvn != CellValNum::single() {
        return Err(err(
            &format!("{field}.cell_val_num"),
            "a numeric dimension has one value per cell",
        ));
    }
    let df = format!("{field}.domain");
    let domain = parse_range(datatype, false, req(m, "domain", field)?, &df)?;
    let (lo, hi) = (domain.start(), domain.end());
    let bad_float = |v: &Value| v.as_i128().is_none() && !v.as_f64().is_some_and(f64::is_finite);
    let above = match (lo.as_i128(), hi.as_i128()) {
        (Some(l), Some(h)) => l > h,
        _ => lo.as_f64() > hi.as_f64(),
    };
    if above || bad_float(&lo) || bad_float(&hi) {
        return Err(err(
            &df,
            "the low bound must be finite and not above the high bound",
        ));
    }
    let tf = format!("{field}.tile_extent");
    let tile_extent = match opt(m, "tile_extent") {
        Some(x) => {
            let e = one_value(datatype, x, &tf)?;
            let ok = match (e.as_i128(), lo.as_i128(), hi.as_i128()) {
                (Some(x), Some(l), Some(h)) => x > 0 && x <= h - l + 1,
                _ => match (e.as_f64(), lo.as_f64(), hi.as_f64()) {
                    (Some(x), Some(l), Some(h)) => x > 0.0 && x <= h - l,
                    _ => false,
                },
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
            let ext = match (lo.as_i128(), hi.as_i128()) {
                // A range past u64 (a whole u64 or i64 domain) fits no datatype.
                (Some(l), Some(h)) => {
                    let x = h - l + 1;
                    i64::try_from(x)
                        .map(Json::from)
                        .or_else(|_| u64::try_from(x).map(Json::from))
                        .unwrap_or(Json::Null)
                }
                _ => json!(hi.as_f64().unwrap_or(0.0) - lo.as_f64().unwrap_or(0.0)),
            };
            Some(one_value(datatype, &ext, &tf).map_err(|_| {
                err(
                    &tf,
                    "the domain's range does not fit the datatype; give a tile extent",
                )
            })?)
        }
    };
    Ok(Dimension::new(name, datatype, domain, tile_extent))
}

fn parse_attribute(v: &Json, field: &str) -> Parsed<Attribute> {
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
    let cell_val_num =
        parse_cell_val_num(opt(m, "cell_val_num"), &format!("{field}.cell_val_num"))?;
    let fixed = cell_val_num.fixed();
    let fill_value = match opt(m, "fill_value") {
        Some(x) => {
            cell_bytes(datatype, fixed, x).map_err(|e| err(&format!("{field}.fill_value"), e))?
        }
        None => default_fill_value(datatype).repeat(fixed.unwrap_or(1) as usize),
    };
    if fill_value.is_empty() {
        return Err(err(
            &format!("{field}.fill_value"),
            "a fill value cannot be empty",
        ));
    }
    let enumeration = opt(m, "enumeration")
        .map(|x| string(x, &format!("{field}.enumeration")))
        .transpose()?;
    let filters = parse_filters(opt(m, "filters"), &format!("{field}.filters"))?;
    if filters.iter().any(|f| matches!(f, Filter::Webp { .. })) && datatype != Datatype::Uint8 {
        return Err(err(
            &format!("{field}.filters"),
            "the WEBP filter takes UINT8 attributes",
        ));
    }
    Ok(Attribute {
        name,
        datatype,
        cell_val_num,
        nullable: opt_bool(m, "nullable", field)?,
        fill_value,
        fill_value_valid: opt_bool(m, "fill_value_validity", field)?,
        filters,
        enumeration,
    })
}

fn parse_enumeration(v: &Json, field: &str) -> Parsed<Enumeration> {
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
    let cell_val_num =
        parse_cell_val_num(opt(m, "cell_val_num"), &format!("{field}.cell_val_num"))?;
    let ordered = opt_bool(m, "ordered", field)?;
    let vf = format!("{field}.values");
    let list = req(m, "values", field)?
        .as_array()
        .ok_or_else(|| err(&vf, "expected a list"))?;
    let vals = list
        .iter()
        .enumerate()
        .map(|(i, x)| {
            cell_bytes(datatype, cell_val_num.fixed(), x).map_err(|e| err(&format!("{vf}[{i}]"), e))
        })
        .collect::<Parsed<Vec<_>>>()?;
    let path_name = match opt(m, "filename") {
        Some(x) => {
            let f = string(x, &format!("{field}.filename"))?;
            if f.is_empty() || f == "." || f == ".." || f.contains(['/', '\\']) {
                return Err(err(&format!("{field}.filename"), "not a file name"));
            }
            f
        }
        None => format!("__{}_0", crate::format::names::random_label()),
    };
    Ok(Enumeration::new(
        name,
        path_name,
        datatype,
        cell_val_num,
        ordered,
        vals,
    ))
}

fn parse_label(v: &Json, field: &str, dims: &[Dimension]) -> Parsed<DimensionLabel> {
    let m = obj(v, field)?;
    check_keys(
        m,
        field,
        &[
            "dimension",
            "name",
            "uri",
            "relative_uri",
            "attribute",
            "order",
            "datatype",
            "cell_val_num",
            "external",
        ],
    )?;
    let df = format!("{field}.dimension");
    let dimension = uint(req(m, "dimension", field)?, &df)?;
    if dimension >= dims.len() as u64 {
        return Err(err(
            &df,
            format!("the schema has {} dimensions", dims.len()),
        ));
    }
    let of = format!("{field}.order");
    let order = match string(req(m, "order", field)?, &of)?.as_str() {
        "unordered" => DataOrder::Unordered,
        "increasing" => DataOrder::Increasing,
        "decreasing" => DataOrder::Decreasing,
        o => {
            return Err(err(
                &of,
                format!("expected \"increasing\", \"decreasing\" or \"unordered\", got {o:?}"),
            ))
        }
    };
    Ok(DimensionLabel {
        dimension: dimension as u32,
        name: string(req(m, "name", field)?, &format!("{field}.name"))?,
        uri: string(req(m, "uri", field)?, &format!("{field}.uri"))?,
        relative_uri: opt_bool(m, "relative_uri", field)?,
        attribute: string(req(m, "attribute", field)?, &format!("{field}.attribute"))?,
        order,
        datatype: parse_datatype(req(m, "datatype", field)?, &format!("{field}.datatype"))?,
        cell_val_num: parse_cell_val_num(opt(m, "cell_val_num"), &format!("{field}.cell_val_num"))?,
        external: opt_bool(m, "external", field)?,
    })
}

fn parse_current_domain(v: &Json, dims: &[Dimension]) -> Parsed<CurrentDomain> {
    let field = "schema.current_domain";
    let list = v
        .as_array()
        .filter(|l| l.len() == dims.len())
        .ok_or_else(|| err(field, "expected one [low, high] per dimension"))?;
    let ranges = list
        .iter()
        .zip(dims)
        .enumerate()
        .map(|(i, (r, d))| {
            parse_range(
                d.datatype,
                d.cell_val_num.is_var(),
                r,
                &format!("{field}[{i}]"),
            )
        })
        .collect::<Parsed<Vec<_>>>()?;
    Ok(CurrentDomain::NdRectangle(ranges))
}

/// The schema's `"array_type"`: `"dense"` or `"sparse"`.
fn parse_array_type(m: &Map<String, Json>) -> Parsed<ArrayType> {
    let at = string(req(m, "array_type", "schema")?, "schema.array_type")?;
    match at.to_ascii_lowercase().as_str() {
        "dense" => Ok(ArrayType::Dense),
        "sparse" => Ok(ArrayType::Sparse),
        _ => Err(err(
            "schema.array_type",
            format!("expected \"dense\" or \"sparse\", got {at:?}"),
        )),
    }
}

/// The schema's cell and tile orders (row-major when not given).
fn parse_orders(m: &Map<String, Json>, dense: bool) -> Parsed<(Layout, Layout)> {
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
    Ok((cell_order, tile_order))
}

/// The schema's dimensions (their filters not yet set) with their JSON.
fn parse_dimensions(
    m: &Map<String, Json>,
    dense: bool,
    hilbert: bool,
) -> Parsed<(Vec<Dimension>, &Vec<Json>)> {
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
    let dims = dims_v
        .iter()
        .enumerate()
        .map(|(i, d)| parse_dimension(d, &format!("schema.dimensions[{i}]"), hilbert))
        .collect::<Parsed<Vec<_>>>()?;
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
    Ok((dims, dims_v))
}

/// The schema's attributes, in a schema of `ndims` dimensions.
fn parse_attributes(m: &Map<String, Json>, dense: bool, ndims: usize) -> Parsed<Vec<Attribute>> {
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
        let a = parse_attribute(a, &field)?;
        if a.filters.iter().any(|f| matches!(f, Filter::Webp { .. })) && (!dense || ndims != 2) {
            return Err(err(
                &format!("{field}.filters"),
                "the WEBP filter takes dense arrays of two dimensions",
            ));
        }
        attrs.push(a);
    }
    Ok(attrs)
}

/// Every dimension and attribute name is used once, none is reserved, and
/// every dimension has one.
fn check_names(dims: &[Dimension], attrs: &[Attribute]) -> Parsed<()> {
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
    Ok(())
}

/// The schema's enumerations, each attribute's enumeration among them.
fn parse_enumerations(m: &Map<String, Json>, attrs: &[Attribute]) -> Parsed<Vec<Enumeration>> {
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
            if !enumerations.iter().any(|x: &Enumeration| &x.name == e) {
                return Err(err(
                    &format!("schema.attributes[{i}].enumeration"),
                    format!("no enumeration {e:?} in schema.enumerations"),
                ));
            }
            if !is_int_like(a.datatype) || a.cell_val_num != CellValNum::single() {
                return Err(err(
                    &format!("schema.attributes[{i}].enumeration"),
                    "an attribute with an enumeration holds one integer per cell",
                ));
            }
        }
    }
    Ok(enumerations)
}

/// The schema's dimension labels.
fn parse_labels(m: &Map<String, Json>, dims: &[Dimension]) -> Parsed<Vec<DimensionLabel>> {
    let mut dimension_labels = Vec::new();
    if let Some(list) = opt(m, "dimension_labels") {
        let list = list
            .as_array()
            .ok_or_else(|| err("schema.dimension_labels", "expected a list"))?;
        for (i, l) in list.iter().enumerate() {
            dimension_labels.push(parse_label(
                l,
                &format!("schema.dimension_labels[{i}]"),
                dims,
            )?);
        }
    }
    Ok(dimension_labels)
}

/// Parses and checks the JSON of a schema (what [`schema_to_json`](super::schema_to_json) prints;
/// `version` is taken as given, by default the newest this crate writes).
pub fn schema_from_json(json: &Json) -> Parsed<Schema> {
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
            "dimension_labels",
            "current_domain",
        ],
    )?;
    let version = match opt(m, "version") {
        Some(x) => u32::try_from(uint(x, "schema.version")?)
            .map_err(|_| err("schema.version", "not a format version"))?,
        None => crate::format::version::FORMAT_VERSION,
    };
    let array_type = parse_array_type(m)?;
    let dense = array_type == ArrayType::Dense;
    let (cell_order, tile_order) = parse_orders(m, dense)?;
    let capacity = match opt(m, "capacity") {
        Some(x) => uint(x, "schema.capacity")?,
        None => 10000,
    };
    if capacity == 0 {
        return Err(err("schema.capacity", "must be above 0"));
    }
    let allows_duplicates = opt_bool(m, "allows_duplicates", "schema")?;
    if dense && allows_duplicates {
        return Err(err(
            "schema.allows_duplicates",
            "dense arrays cannot allow duplicates",
        ));
    }
    let hilbert = cell_order == Layout::Hilbert;
    let (mut dims, dims_v) = parse_dimensions(m, dense, hilbert)?;
    let pipeline = |key: &str, default: Filter| match opt(m, key) {
        Some(x) => parse_filters(Some(x), &format!("schema.{key}")),
        None => Ok(vec![default]),
    };
    let coords_filters = pipeline("coords_filters", Filter::Zstd { level: -1 })?;
    for (i, (d, v)) in dims.iter_mut().zip(dims_v).enumerate() {
        let field = format!("schema.dimensions[{i}].filters");
        let given = v.get("filters").filter(|x| !x.is_null());
        let own = parse_filters(given, &field)?;
        // A dimension shows the coords filters when it has none of its own.
        d.filters = (given.is_some() && own != coords_filters).then_some(own);
    }
    let offsets_filters = pipeline("offsets_filters", Filter::Zstd { level: -1 })?;
    let validity_filters = pipeline("validity_filters", Filter::Rle { level: -1 })?;
    let attrs = parse_attributes(m, dense, dims.len())?;
    check_names(&dims, &attrs)?;
    let enumerations = parse_enumerations(m, &attrs)?;
    let dimension_labels = parse_labels(m, &dims)?;
    let current_domain = opt(m, "current_domain")
        .map(|v| parse_current_domain(v, &dims))
        .transpose()?;
    Ok(Schema {
        version,
        array_type,
        cell_order,
        tile_order,
        capacity,
        allows_duplicates,
        dimensions: dims,
        attributes: attrs,
        coords_filters,
        offsets_filters,
        validity_filters,
        enumerations,
        dimension_labels,
        current_domain,
    })
}

/// One attribute from its JSON (an element of the schema's `"attributes"`,
/// as `inspect --json` prints it). Checked alone: whether its enumeration
/// exists is the schema's business.
pub fn attribute_from_json(v: &Json) -> Result<Attribute, ModelError> {
    parse_attribute(v, "attribute")
}

/// One enumeration from its JSON (an element of the schema's
/// `"enumerations"`, with its values). Without a `"filename"` it gets a
/// fresh one, as the engine names a new enumeration's file.
pub fn enumeration_from_json(v: &Json) -> Result<Enumeration, ModelError> {
    parse_enumeration(v, "enumeration")
}

/// Values of the enumeration `e` from a JSON list (strings for text
/// enumerations, numbers for numeric ones; lists for multi-valued ones),
/// each as its bytes.
pub fn enumeration_values_from_json(e: &Enumeration, v: &Json) -> Result<Vec<Vec<u8>>, ModelError> {
    let list = v
        .as_array()
        .ok_or_else(|| err("values", "expected a list"))?;
    list.iter()
        .enumerate()
        .map(|(i, x)| {
            cell_bytes(e.datatype, e.cell_val_num.fixed(), x)
                .map_err(|m| err(&format!("values[{i}]"), m))
        })
        .collect()
}

/// A range of dimension `d` from its JSON `[low, high]` (strings for
/// string dimensions).
pub fn dimension_range_from_json(d: &Dimension, v: &Json) -> Result<DomainRange, ModelError> {
    parse_range(d.datatype, d.cell_val_num.is_var(), v, &d.name)
}
