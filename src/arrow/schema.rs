//! TileDB fields and schemas as Arrow fields and schemas, and back.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema};

use super::{Error, Result};
use crate::array::FieldInfo;
use crate::format::Datatype;
use crate::model::{self, ArrayType, CellValNum, Layout};

/// Field metadata key: the field's TileDB datatype (`INT32`, `DATETIME_MS`..).
pub const DATATYPE_KEY: &str = "tiledb.datatype";
/// Field metadata key: values per cell (`1`, `3`, `var`).
pub const CELL_VAL_NUM_KEY: &str = "tiledb.cell_val_num";
/// Field metadata key: `true` on dimensions.
pub const DIMENSION_KEY: &str = "tiledb.dimension";
/// Field metadata key: the name of an attribute's enumeration.
pub const ENUMERATION_KEY: &str = "tiledb.enumeration";

/// Whether values of `dt` are text Arrow can hold as UTF-8.
pub(crate) fn is_utf8(dt: Datatype) -> bool {
    matches!(dt, Datatype::StringAscii | Datatype::StringUtf8)
}

/// Whether cells of `dt` are byte strings (text or blobs): var-sized ones
/// become `LargeUtf8`/`LargeBinary`, fixed ones `FixedSizeBinary`.
pub(crate) fn is_bytes(dt: Datatype) -> bool {
    dt.is_string() || dt.is_opaque()
}

/// The Arrow type of one value of `dt` (the type of a cell of one value,
/// and of the items of lists). Byte-string datatypes give `UInt8`.
pub fn value_type(dt: Datatype) -> DataType {
    dt.arrow_type()
}

/// The item field of lists.
fn item(dt: Datatype) -> Arc<Field> {
    Arc::new(Field::new("item", value_type(dt), false))
}

/// The Arrow type of cells of `dt` with `cell_val_num` values each
/// (`None`: var-sized), as the module's table says.
pub fn field_type(dt: Datatype, cell_val_num: Option<u32>) -> DataType {
    match cell_val_num {
        None if is_utf8(dt) => DataType::LargeUtf8,
        None if is_bytes(dt) => DataType::LargeBinary,
        None => DataType::LargeList(item(dt)),
        Some(n) if is_bytes(dt) => {
            DataType::FixedSizeBinary(i32::try_from(u64::from(n) * dt.size()).unwrap_or(i32::MAX))
        }
        Some(1) => value_type(dt),
        Some(n) => DataType::FixedSizeList(item(dt), i32::try_from(n).unwrap_or(i32::MAX)),
    }
}

/// A dictionary of `key` keys (an integer datatype) over labels of `labels`
/// with `labels_cvn` values each.
pub fn dictionary_type(key: Datatype, labels: Datatype, labels_cvn: Option<u32>) -> DataType {
    DataType::Dictionary(
        Box::new(value_type(key)),
        Box::new(field_type(labels, labels_cvn)),
    )
}

fn cvn_text(cell_val_num: Option<u32>) -> String {
    cell_val_num.map_or("var".to_string(), |n| n.to_string())
}

/// The labels of an attribute's enumeration: its name, datatype and values
/// per label (`None`: var-sized).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EnumerationType {
    /// The enumeration's name.
    pub name: String,
    /// The labels' datatype.
    pub datatype: Datatype,
    /// Values per label (`None`: var-sized).
    pub cell_val_num: Option<u32>,
}

/// The Arrow field of a TileDB field (`enumeration`: the attribute's, if it
/// has one: the field is then a dictionary).
pub fn arrow_field(info: &FieldInfo, enumeration: Option<&EnumerationType>) -> Field {
    field_of(
        &info.name,
        info.datatype,
        info.cell_val_num,
        info.nullable,
        info.is_dimension,
        enumeration,
    )
}

fn field_of(
    name: &str,
    dt: Datatype,
    cvn: Option<u32>,
    nullable: bool,
    dimension: bool,
    enumeration: Option<&EnumerationType>,
) -> Field {
    let mut meta = HashMap::from([
        (DATATYPE_KEY.to_string(), dt.name().to_string()),
        (CELL_VAL_NUM_KEY.to_string(), cvn_text(cvn)),
    ]);
    if dimension {
        meta.insert(DIMENSION_KEY.to_string(), "true".to_string());
    }
    let ty = match enumeration {
        Some(e) if cvn == Some(1) => {
            meta.insert(ENUMERATION_KEY.to_string(), e.name.clone());
            dictionary_type(dt, e.datatype, e.cell_val_num)
        }
        _ => field_type(dt, cvn),
    };
    Field::new(name, ty, nullable).with_metadata(meta)
}

fn model_cvn(c: CellValNum) -> Option<u32> {
    match c {
        CellValNum::Fixed(n) => Some(n.get()),
        CellValNum::Var => None,
    }
}

/// The Arrow schema of a TileDB schema: the dimensions, then the
/// attributes, as a read returns them (enumerated attributes as
/// dictionaries of their labels' type).
pub fn to_arrow(schema: &model::Schema) -> Result<Schema> {
    let mut fields = Vec::new();
    for d in &schema.dimensions {
        fields.push(field_of(
            &d.name,
            d.datatype,
            model_cvn(d.cell_val_num),
            false,
            true,
            None,
        ));
    }
    for a in &schema.attributes {
        let e = match &a.enumeration {
            Some(name) => {
                let e = schema
                    .enumerations
                    .iter()
                    .find(|e| &e.name == name)
                    .ok_or_else(|| {
                        Error::field(
                            &a.name,
                            format!("names enumeration {name:?}, which the schema lacks"),
                        )
                    })?;
                Some(EnumerationType {
                    name: name.clone(),
                    datatype: e.datatype,
                    cell_val_num: model_cvn(e.cell_val_num),
                })
            }
            None => None,
        };
        fields.push(field_of(
            &a.name,
            a.datatype,
            model_cvn(a.cell_val_num),
            a.nullable,
            false,
            e.as_ref(),
        ));
    }
    Ok(Schema::new(fields))
}

/// The TileDB datatype and values per cell (`None`: var-sized) an Arrow
/// type stands for, when the field carries no TileDB metadata.
fn infer(name: &str, ty: &DataType) -> Result<(Datatype, Option<u32>)> {
    use Datatype as D;
    // The table's Arrow column read backwards: the first numeric, boolean,
    // date or time datatype (in spec order) of the type, after the Arrow
    // types with no column of their own.
    let scalar = |ty: &DataType| -> Option<Datatype> {
        let ty = match ty {
            DataType::Timestamp(u, Some(_)) => DataType::Timestamp(*u, None),
            DataType::Time32(u) | DataType::Time64(u) => DataType::Duration(*u),
            DataType::Date64 => return Some(D::DatetimeMs),
            t => t.clone(),
        };
        D::ALL
            .iter()
            .copied()
            .find(|d| !d.is_string() && !d.is_opaque() && d.arrow_type() == ty)
    };
    let unsupported = || Error::field(name, format!("Arrow type {ty} has no TileDB datatype"));
    Ok(match ty {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => (D::StringUtf8, None),
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => (D::Blob, None),
        DataType::FixedSizeBinary(n) => (
            D::Blob,
            Some(
                u32::try_from(*n)
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(unsupported)?,
            ),
        ),
        DataType::List(f) | DataType::LargeList(f) | DataType::ListView(f) => {
            (scalar(f.data_type()).ok_or_else(unsupported)?, None)
        }
        DataType::FixedSizeList(f, n) => (
            scalar(f.data_type()).ok_or_else(unsupported)?,
            Some(
                u32::try_from(*n)
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(unsupported)?,
            ),
        ),
        DataType::Dictionary(k, _) => (scalar(k).ok_or_else(unsupported)?, Some(1)),
        other => (scalar(other).ok_or_else(unsupported)?, Some(1)),
    })
}

/// The TileDB datatype and values per cell (`None`: var-sized) of an Arrow
/// field: from its metadata where it has [`DATATYPE_KEY`], else from its
/// Arrow type (text `StringUtf8`, binary `Blob`, timestamps `DATETIME_*`,
/// durations and times `TIME_*`, `Date32` `DATETIME_DAY`, dictionaries their
/// keys' type).
pub fn tiledb_type(field: &Field) -> Result<(Datatype, Option<u32>)> {
    let meta = field.metadata();
    let Some(name) = meta.get(DATATYPE_KEY) else {
        return infer(field.name(), field.data_type());
    };
    let dt = Datatype::from_name(name)
        .ok_or_else(|| Error::field(field.name(), format!("unknown datatype {name:?}")))?;
    let cvn =
        match meta.get(CELL_VAL_NUM_KEY).map(String::as_str) {
            None => infer(field.name(), field.data_type())?.1,
            Some("var") => None,
            Some(n) => Some(n.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
                Error::field(field.name(), format!("bad {CELL_VAL_NUM_KEY} {n:?}"))
            })?),
        };
    Ok((dt, cvn))
}

fn cell_val_num(n: Option<u32>) -> CellValNum {
    match n.and_then(NonZeroU32::new) {
        Some(n) => CellValNum::Fixed(n),
        None => CellValNum::Var,
    }
}

/// A TileDB schema for an Arrow schema: the fields named in `dimensions`
/// become the dimensions (in that order), the others attributes; a sparse
/// array, row-major, capacity 10000, format version
/// [`crate::write::FORMAT_VERSION`]. Domains and tile extents are left
/// unset (`None`) for the caller to choose; dictionary fields get an
/// enumeration named after the field, without labels (they are in the
/// data, not the schema).
pub fn from_arrow(arrow: &Schema, dimensions: &[&str]) -> Result<model::Schema> {
    for d in dimensions {
        if arrow.field_with_name(d).is_err() {
            return Err(Error::field(*d, "not a field of the Arrow schema"));
        }
    }
    let mut dims = Vec::new();
    for name in dimensions {
        let f = arrow.field_with_name(name).map_err(Error::Arrow)?;
        let (dt, cvn) = tiledb_type(f)?;
        dims.push(model::Dimension {
            name: name.to_string(),
            datatype: dt,
            cell_val_num: cell_val_num(cvn),
            domain: None,
            tile_extent: None,
            filters: None,
        });
    }
    let mut attributes = Vec::new();
    let mut enumerations = Vec::new();
    for f in arrow.fields() {
        if dimensions.contains(&f.name().as_str()) {
            continue;
        }
        let (dt, cvn) = tiledb_type(f)?;
        let enumeration = match f.data_type() {
            DataType::Dictionary(_, v) => {
                let (ldt, lcvn) = infer(f.name(), v)?;
                let name = f
                    .metadata()
                    .get(ENUMERATION_KEY)
                    .cloned()
                    .unwrap_or_else(|| f.name().clone());
                enumerations.push(model::Enumeration {
                    name: name.clone(),
                    path_name: String::new(),
                    datatype: ldt,
                    cell_val_num: cell_val_num(lcvn),
                    ordered: false,
                    values: Vec::new(),
                });
                Some(name)
            }
            _ => None,
        };
        let fill = crate::model::default_fill_value(dt);
        let fill = match cvn {
            Some(n) => fill.repeat(n as usize),
            None => fill,
        };
        attributes.push(model::Attribute {
            name: f.name().clone(),
            datatype: dt,
            cell_val_num: cell_val_num(cvn),
            nullable: f.is_nullable(),
            fill_value: fill,
            fill_value_valid: false,
            filters: Vec::new(),
            enumeration,
        });
    }
    Ok(model::Schema {
        version: crate::write::FORMAT_VERSION,
        array_type: ArrayType::Sparse,
        cell_order: Layout::RowMajor,
        tile_order: Layout::RowMajor,
        capacity: 10_000,
        allows_duplicates: false,
        dimensions: dims,
        attributes,
        coords_filters: Vec::new(),
        offsets_filters: Vec::new(),
        validity_filters: Vec::new(),
        enumerations,
        dimension_labels: Vec::new(),
        current_domain: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::TimeUnit;

    #[test]
    fn types_follow_the_table() {
        assert_eq!(field_type(Datatype::Int32, Some(1)), DataType::Int32);
        assert_eq!(field_type(Datatype::StringUtf8, None), DataType::LargeUtf8);
        assert_eq!(field_type(Datatype::Char, None), DataType::LargeBinary);
        assert_eq!(
            field_type(Datatype::Char, Some(3)),
            DataType::FixedSizeBinary(3)
        );
        assert_eq!(
            field_type(Datatype::Float64, Some(2)),
            DataType::FixedSizeList(item(Datatype::Float64), 2)
        );
        assert_eq!(
            field_type(Datatype::Int16, None),
            DataType::LargeList(item(Datatype::Int16))
        );
        assert_eq!(field_type(Datatype::DatetimeDay, Some(1)), DataType::Date32);
        assert_eq!(
            field_type(Datatype::TimeNs, Some(1)),
            DataType::Duration(TimeUnit::Nanosecond)
        );
        assert_eq!(field_type(Datatype::DatetimeYear, Some(1)), DataType::Int64);
    }

    #[test]
    fn every_datatype_comes_back_through_metadata() {
        for &dt in Datatype::ALL {
            for cvn in [Some(1), Some(3), None] {
                let f = field_of("f", dt, cvn, true, false, None);
                assert_eq!(tiledb_type(&f).unwrap(), (dt, cvn), "{dt:?} {cvn:?}");
            }
        }
    }

    #[test]
    fn plain_arrow_types_are_inferred() {
        let f = Field::new("t", DataType::Timestamp(TimeUnit::Millisecond, None), true);
        assert_eq!(tiledb_type(&f).unwrap(), (Datatype::DatetimeMs, Some(1)));
        let f = Field::new("s", DataType::Utf8, true);
        assert_eq!(tiledb_type(&f).unwrap(), (Datatype::StringUtf8, None));
        let f = Field::new("m", DataType::Map(item(Datatype::Int8), false), true);
        assert!(tiledb_type(&f).is_err());
    }

    #[test]
    fn schemas_go_to_arrow_and_back() {
        let arrow = Schema::new(vec![
            Field::new("x", DataType::Int64, false),
            Field::new("s", DataType::Utf8, true),
            Field::new(
                "c",
                DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
                false,
            ),
        ]);
        let model = from_arrow(&arrow, &["x"]).unwrap();
        assert_eq!(model.dimensions.len(), 1);
        assert_eq!(model.attributes.len(), 2);
        assert_eq!(model.attributes[1].enumeration.as_deref(), Some("c"));
        let back = to_arrow(&model).unwrap();
        let types: Vec<DataType> = back
            .fields()
            .iter()
            .map(|f| f.data_type().clone())
            .collect();
        assert_eq!(
            types,
            vec![
                DataType::Int64,
                DataType::LargeUtf8,
                dictionary_type(Datatype::Int8, Datatype::StringUtf8, None)
            ]
        );
        assert!(back.field(1).is_nullable());
        assert!(from_arrow(&arrow, &["nope"]).is_err());
    }
}
