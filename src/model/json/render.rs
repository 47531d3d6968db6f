//! A schema to JSON.

use serde_json::{json, Map, Value as Json};

use crate::format::{self};
use crate::model::value::{cell, is_text, values};
use crate::model::{
    ArrayType, Attribute, CellValNum, CurrentDomain, DataOrder, Datatype, Dimension,
    DimensionLabel, DomainRange, Enumeration, Filter, Layout, Schema,
};

fn layout_name(l: Layout) -> Json {
    json!(format::Layout::from(l)
        .name()
        .to_ascii_lowercase()
        .replace('_', "-"))
}

fn cell_val_num_json(n: CellValNum) -> Json {
    match n {
        CellValNum::Var => json!("var"),
        CellValNum::Fixed(n) => json!(n.get()),
    }
}

/// A filter as `{"type": NAME, option: value, ...}`.
pub fn filter_to_json(f: &Filter) -> Json {
    let mut m = Map::new();
    m.insert("type".into(), json!(f.filter_type().name()));
    match *f {
        Filter::Gzip { level }
        | Filter::Zstd { level }
        | Filter::Lz4 { level }
        | Filter::Rle { level }
        | Filter::Bzip2 { level }
        | Filter::Dictionary { level } => {
            m.insert("level".into(), json!(level));
        }
        Filter::Delta { level, reinterpret } | Filter::DoubleDelta { level, reinterpret } => {
            m.insert("level".into(), json!(level));
            let r = reinterpret.unwrap_or(Datatype::Any);
            m.insert("reinterpret_datatype".into(), json!(r.name()));
        }
        Filter::BitWidthReduction { max_window_size }
        | Filter::PositiveDelta { max_window_size } => {
            m.insert("max_window_size".into(), json!(max_window_size));
        }
        Filter::ScaleFloat {
            scale,
            offset,
            byte_width,
        } => {
            m.insert("scale".into(), json!(scale));
            m.insert("offset".into(), json!(offset));
            m.insert("byte_width".into(), json!(byte_width));
        }
        Filter::Webp {
            quality,
            input_format,
            lossless,
        } => {
            m.insert("quality".into(), json!(quality));
            m.insert("input_format".into(), json!(input_format.name()));
            m.insert("lossless".into(), json!(lossless));
        }
        Filter::None
        | Filter::BitShuffle
        | Filter::ByteShuffle
        | Filter::ChecksumMd5
        | Filter::ChecksumSha256
        | Filter::Xor
        | Filter::Aes256Gcm => {}
    }
    Json::Object(m)
}

fn filters_json(fs: &[Filter]) -> Json {
    Json::Array(fs.iter().map(filter_to_json).collect())
}

/// A typed range as `[low, high]`, each bound shown as a value of `dt`.
pub fn range_to_json(dt: Datatype, r: &DomainRange) -> Json {
    let (lo, hi) = r.to_le_bytes();
    json!([cell(dt, &lo), cell(dt, &hi)])
}

fn dimension_json(d: &Dimension, coords: &[Filter]) -> Json {
    json!({
        "name": d.name,
        "datatype": d.datatype.name(),
        "cell_val_num": cell_val_num_json(d.cell_val_num),
        "domain": d.domain.as_ref().map_or(Json::Null, |r| range_to_json(d.datatype, r)),
        "tile_extent": d.tile_extent.as_ref().map_or(Json::Null, |v| cell(d.datatype, &v.to_le_bytes())),
        "filters": filters_json(d.filters.as_deref().unwrap_or(coords)),
    })
}

fn attribute_json(a: &Attribute) -> Json {
    // Before version 6 attributes store no fill value.
    let fill = if a.fill_value.is_empty() {
        Json::Null
    } else {
        cell(a.datatype, &a.fill_value)
    };
    json!({
        "name": a.name,
        "datatype": a.datatype.name(),
        "cell_val_num": cell_val_num_json(a.cell_val_num),
        "nullable": a.nullable,
        "fill_value": fill,
        "filters": filters_json(&a.filters),
        "enumeration": a.enumeration,
    })
}

/// One enumeration with its values (each one value or a list, as cells
/// are shown; text as a string).
pub fn enumeration_to_json(e: &Enumeration) -> Json {
    let var = e.cell_val_num.is_var();
    let vals: Vec<Json> = e
        .values
        .iter()
        .map(|b| {
            // A var-sized value that is not text is a list even when it
            // holds one number, so that it reads back as var-sized.
            if var && !is_text(e.datatype) {
                Json::Array(values(e.datatype, b))
            } else {
                cell(e.datatype, b)
            }
        })
        .collect();
    json!({
        "name": e.name,
        "filename": e.path_name,
        "datatype": e.datatype.name(),
        "cell_val_num": cell_val_num_json(e.cell_val_num),
        "ordered": e.ordered,
        "values": vals,
    })
}

fn order_name(o: DataOrder) -> &'static str {
    match o {
        DataOrder::Unordered => "unordered",
        DataOrder::Increasing => "increasing",
        DataOrder::Decreasing => "decreasing",
    }
}

fn label_json(l: &DimensionLabel) -> Json {
    json!({
        "dimension": l.dimension,
        "name": l.name,
        "uri": l.uri,
        "relative_uri": l.relative_uri,
        "attribute": l.attribute,
        "order": order_name(l.order),
        "datatype": l.datatype.name(),
        "cell_val_num": cell_val_num_json(l.cell_val_num),
        "external": l.external,
    })
}

fn current_domain_json(s: &Schema) -> Json {
    match &s.current_domain {
        Some(CurrentDomain::NdRectangle(ranges)) => Json::Array(
            ranges
                .iter()
                .zip(&s.dimensions)
                .map(|(r, d)| range_to_json(d.datatype, r))
                .collect(),
        ),
        Some(CurrentDomain::Empty) | None => Json::Null,
    }
}

/// The schema as `inspect --json` prints it (enumerations with their
/// values; `current_domain` null when empty or absent).
pub fn schema_to_json(s: &Schema) -> Json {
    let array_type = match s.array_type {
        ArrayType::Dense => "dense",
        ArrayType::Sparse => "sparse",
    };
    json!({
        "version": s.version,
        "array_type": array_type,
        "cell_order": layout_name(s.cell_order),
        "tile_order": layout_name(s.tile_order),
        "capacity": s.capacity,
        "allows_duplicates": s.allows_duplicates,
        "dimensions": s.dimensions.iter().map(|d| dimension_json(d, &s.coords_filters)).collect::<Vec<_>>(),
        "attributes": s.attributes.iter().map(attribute_json).collect::<Vec<_>>(),
        "coords_filters": filters_json(&s.coords_filters),
        "offsets_filters": filters_json(&s.offsets_filters),
        "validity_filters": filters_json(&s.validity_filters),
        "enumerations": s.enumerations.iter().map(enumeration_to_json).collect::<Vec<_>>(),
        "dimension_labels": s.dimension_labels.iter().map(label_json).collect::<Vec<_>>(),
        "current_domain": current_domain_json(s),
    })
}
