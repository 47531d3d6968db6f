//! [`SchemaBuilder`], [`DimensionBuilder`], [`AttributeBuilder`]: a typed
//! [`Schema`] for [`Array::create`](super::Array::create).

use std::num::NonZeroU32;

use super::range::{fit, IntoDimRange};
use super::Error;
use crate::format::Datatype;
use crate::model::{
    ArrayType, Attribute, CellValNum, CurrentDomain, Dimension, DimensionLabel, DomainRange,
    Enumeration, Filter, Layout, Range, Schema, Value,
};
use crate::read::{Bound, DimRange};

fn schema_err(field: impl Into<String>, what: impl Into<String>) -> Error {
    Error::Schema {
        field: field.into(),
        what: what.into(),
    }
}

/// Builds a [`Schema`]: the array type, dimensions, attributes, orders.
/// [`SchemaBuilder::build`] checks it and says what is wrong with an
/// [`Error::Schema`] naming the part.
///
/// ```
/// use tiledb_codec::{AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};
/// use tiledb_codec::raw::model::Filter;
///
/// let schema = SchemaBuilder::dense()
///     .dimension(DimensionBuilder::new("row", Datatype::Int32).domain(1..=100).tile_extent(10))
///     .dimension(DimensionBuilder::new("col", Datatype::Int32).domain(1..=100).tile_extent(10))
///     .attribute(AttributeBuilder::new("v", Datatype::Float64).filters([Filter::Zstd { level: 3 }]))
///     .build()?;
/// assert_eq!(schema.dimensions.len(), 2);
///
/// let bad = SchemaBuilder::dense()
///     .dimension(DimensionBuilder::new("x", Datatype::Float64).domain(0.0..=1.0).tile_extent(0.5))
///     .attribute(AttributeBuilder::new("v", Datatype::Int32))
///     .build();
/// assert!(bad.is_err()); // dense arrays have integer dimensions
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct SchemaBuilder {
    array_type: ArrayType,
    cell_order: Layout,
    tile_order: Layout,
    capacity: u64,
    allows_duplicates: bool,
    dimensions: Vec<DimensionBuilder>,
    attributes: Vec<AttributeBuilder>,
    coords_filters: Vec<Filter>,
    offsets_filters: Vec<Filter>,
    validity_filters: Vec<Filter>,
}

impl SchemaBuilder {
    fn new(array_type: ArrayType) -> Self {
        // The engine's defaults, as `Schema::new` has them.
        let d = Schema::new(array_type, Vec::new(), Vec::new());
        SchemaBuilder {
            array_type,
            cell_order: d.cell_order,
            tile_order: d.tile_order,
            capacity: d.capacity,
            allows_duplicates: d.allows_duplicates,
            dimensions: Vec::new(),
            attributes: Vec::new(),
            coords_filters: d.coords_filters,
            offsets_filters: d.offsets_filters,
            validity_filters: d.validity_filters,
        }
    }

    /// A dense array: every cell of the domain exists.
    pub fn dense() -> Self {
        Self::new(ArrayType::Dense)
    }

    /// A sparse array: only the cells written exist.
    pub fn sparse() -> Self {
        Self::new(ArrayType::Sparse)
    }

    /// Adds a dimension (in order: the first is the slowest in row-major).
    pub fn dimension(mut self, d: DimensionBuilder) -> Self {
        self.dimensions.push(d);
        self
    }

    /// Adds an attribute.
    pub fn attribute(mut self, a: AttributeBuilder) -> Self {
        self.attributes.push(a);
        self
    }

    /// The order of cells within a tile (default row-major; sparse arrays
    /// may also take [`Layout::Hilbert`]).
    pub fn cell_order(mut self, l: Layout) -> Self {
        self.cell_order = l;
        self
    }

    /// The order of tiles (default row-major).
    pub fn tile_order(mut self, l: Layout) -> Self {
        self.tile_order = l;
        self
    }

    /// Sparse arrays: cells per data tile (default 10,000).
    pub fn capacity(mut self, cells: u64) -> Self {
        self.capacity = cells;
        self
    }

    /// Sparse arrays: keep every cell written at the same coordinates
    /// (default: the newest wins).
    pub fn allows_duplicates(mut self, yes: bool) -> Self {
        self.allows_duplicates = yes;
        self
    }

    /// Filters of dimensions that have none of their own (default: ZSTD).
    pub fn coords_filters(mut self, f: impl IntoIterator<Item = Filter>) -> Self {
        self.coords_filters = f.into_iter().collect();
        self
    }

    /// Filters of the offsets of var-sized fields (default: ZSTD).
    pub fn offsets_filters(mut self, f: impl IntoIterator<Item = Filter>) -> Self {
        self.offsets_filters = f.into_iter().collect();
        self
    }

    /// Filters of the validity of nullable fields (default: RLE).
    pub fn validity_filters(mut self, f: impl IntoIterator<Item = Filter>) -> Self {
        self.validity_filters = f.into_iter().collect();
        self
    }

    /// The schema, checked.
    pub fn build(self) -> Result<Schema, Error> {
        let dense = self.array_type == ArrayType::Dense;
        if self.dimensions.is_empty() {
            return Err(schema_err(
                "dimensions",
                "an array needs at least one dimension",
            ));
        }
        if self.attributes.is_empty() {
            return Err(schema_err(
                "attributes",
                "an array needs at least one attribute",
            ));
        }
        if dense && self.allows_duplicates {
            return Err(schema_err(
                "allows_duplicates",
                "dense arrays cannot allow duplicates",
            ));
        }
        if dense && self.cell_order == Layout::Hilbert {
            return Err(schema_err(
                "cell_order",
                "dense arrays cannot have Hilbert cell order",
            ));
        }
        if self.capacity == 0 {
            return Err(schema_err("capacity", "must be above 0"));
        }
        let mut names: Vec<&str> = Vec::new();
        for n in self
            .dimensions
            .iter()
            .map(|d| d.name.as_str())
            .chain(self.attributes.iter().map(|a| a.name.as_str()))
        {
            if names.contains(&n) {
                return Err(schema_err(n, "two fields have this name"));
            }
            names.push(n);
        }
        if dense {
            if let Some(d) = self
                .dimensions
                .iter()
                .find(|d| d.datatype != self.dimensions[0].datatype)
            {
                return Err(schema_err(
                    format!("dimensions.{}.datatype", d.name),
                    "in dense arrays all dimensions have one datatype",
                ));
            }
        }
        let dimensions = self
            .dimensions
            .into_iter()
            .map(|d| d.build(dense))
            .collect::<Result<Vec<_>, _>>()?;
        let attributes = self
            .attributes
            .into_iter()
            .map(AttributeBuilder::build)
            .collect::<Result<Vec<_>, _>>()?;
        let mut s = Schema::new(self.array_type, dimensions, attributes);
        s.cell_order = self.cell_order;
        s.tile_order = self.tile_order;
        s.capacity = self.capacity;
        s.allows_duplicates = self.allows_duplicates;
        s.coords_filters = self.coords_filters;
        s.offsets_filters = self.offsets_filters;
        s.validity_filters = self.validity_filters;
        Ok(s)
    }
}

/// Builds a [`Dimension`]: its name and datatype, then its domain and tile
/// extent in any Rust numbers that fit the datatype (string dimensions,
/// STRING_ASCII, take neither).
#[derive(Debug, Clone)]
#[must_use]
pub struct DimensionBuilder {
    name: String,
    datatype: Datatype,
    domain: Option<DimRange>,
    tile_extent: Option<DimRange>,
    filters: Option<Vec<Filter>>,
}

impl DimensionBuilder {
    /// A dimension named `name` of `datatype`.
    pub fn new(name: impl Into<String>, datatype: Datatype) -> Self {
        DimensionBuilder {
            name: name.into(),
            datatype,
            domain: None,
            tile_extent: None,
            filters: None,
        }
    }

    /// The domain, inclusive: `1..=100`, `-1.0..=1.0`.
    pub fn domain(mut self, domain: impl IntoDimRange) -> Self {
        self.domain = Some(domain.into_dim_range());
        self
    }

    /// The tile extent: one number.
    pub fn tile_extent(mut self, extent: impl IntoDimRange) -> Self {
        self.tile_extent = Some(extent.into_dim_range());
        self
    }

    /// Its own filters (default: the schema's coordinate filters).
    pub fn filters(mut self, f: impl IntoIterator<Item = Filter>) -> Self {
        self.filters = Some(f.into_iter().collect());
        self
    }

    fn build(self, dense: bool) -> Result<Dimension, Error> {
        let name = self.name;
        let dt = self.datatype;
        let field = |what: &str| format!("dimensions.{name}.{what}");
        if dt == Datatype::StringAscii {
            if dense {
                return Err(schema_err(
                    field("datatype"),
                    "dense arrays have integer dimensions",
                ));
            }
            if self.domain.is_some() || self.tile_extent.is_some() {
                return Err(schema_err(
                    field("domain"),
                    "a string dimension has no domain and no tile extent",
                ));
            }
            return Ok(Dimension {
                name,
                datatype: dt,
                cell_val_num: CellValNum::Var,
                domain: None,
                tile_extent: None,
                filters: self.filters,
            });
        }
        let float = dt.is_float();
        let int_like = crate::read::range::bound_kind(dt)
            == Some(crate::read::range::BoundKind::Int)
            && dt != Datatype::Bool
            && dt != Datatype::Char;
        if !(float || int_like) {
            return Err(schema_err(
                field("datatype"),
                format!(
                    "{} is not a dimension datatype (integers, floats, dates, times, STRING_ASCII)",
                    dt.name()
                ),
            ));
        }
        if dense && float {
            return Err(schema_err(
                field("datatype"),
                "dense arrays have integer dimensions",
            ));
        }
        let domain = self
            .domain
            .ok_or_else(|| schema_err(field("domain"), "a numeric dimension needs a domain"))?;
        let domain =
            fit(&name, dt, domain).map_err(|e| schema_err(field("domain"), e.to_string()))?;
        let tile_extent = match self.tile_extent {
            None if dense => {
                return Err(schema_err(
                    field("tile_extent"),
                    "dense dimensions need a tile extent",
                ))
            }
            None => None,
            Some(e) if e.lo != e.hi => {
                return Err(schema_err(field("tile_extent"), "expected one number"))
            }
            Some(e) => {
                let e = fit(&name, dt, e)
                    .map_err(|e| schema_err(field("tile_extent"), e.to_string()))?;
                let span_ok = match (&e.lo, &domain.lo, &domain.hi) {
                    (Bound::Int(x), Bound::Int(lo), Bound::Int(hi)) => *x > 0 && *x <= hi - lo + 1,
                    (Bound::Float(x), Bound::Float(lo), Bound::Float(hi)) => {
                        *x > 0.0 && *x <= hi - lo
                    }
                    _ => false,
                };
                if !span_ok {
                    return Err(schema_err(
                        field("tile_extent"),
                        "must be above 0 and at most the domain's span",
                    ));
                }
                Some(value_of(dt, &e.lo))
            }
        };
        Ok(Dimension {
            domain: Some(domain_of(dt, &domain.lo, &domain.hi)),
            name,
            datatype: dt,
            cell_val_num: CellValNum::Fixed(NonZeroU32::MIN),
            tile_extent,
            filters: self.filters,
        })
    }
}

/// A bound as a [`Value`] of a dimension of `dt` (fits: checked before).
fn value_of(dt: Datatype, b: &Bound) -> Value {
    match (dt, b) {
        (Datatype::Float32, Bound::Float(v)) => Value::Float32(*v as f32),
        (_, Bound::Float(v)) => Value::Float64(*v),
        (Datatype::Int8, Bound::Int(v)) => Value::Int8(*v as i8),
        (Datatype::Int16, Bound::Int(v)) => Value::Int16(*v as i16),
        (Datatype::Int32, Bound::Int(v)) => Value::Int32(*v as i32),
        (Datatype::Uint8, Bound::Int(v)) => Value::UInt8(*v as u8),
        (Datatype::Uint16, Bound::Int(v)) => Value::UInt16(*v as u16),
        (Datatype::Uint32, Bound::Int(v)) => Value::UInt32(*v as u32),
        (Datatype::Uint64, Bound::Int(v)) => Value::UInt64(*v as u64),
        (_, Bound::Int(v)) => Value::Int64(*v as i64),
        (_, Bound::Text(t)) => Value::Bytes(t.clone()),
    }
}

/// `[lo, hi]` as the [`DomainRange`] of a dimension of `dt`.
fn domain_of(dt: Datatype, lo: &Bound, hi: &Bound) -> DomainRange {
    fn r<T>(start: T, end: T) -> Range<T> {
        Range { start, end }
    }
    match (value_of(dt, lo), value_of(dt, hi)) {
        (Value::Int8(a), Value::Int8(b)) => DomainRange::Int8(r(a, b)),
        (Value::Int16(a), Value::Int16(b)) => DomainRange::Int16(r(a, b)),
        (Value::Int32(a), Value::Int32(b)) => DomainRange::Int32(r(a, b)),
        (Value::UInt8(a), Value::UInt8(b)) => DomainRange::UInt8(r(a, b)),
        (Value::UInt16(a), Value::UInt16(b)) => DomainRange::UInt16(r(a, b)),
        (Value::UInt32(a), Value::UInt32(b)) => DomainRange::UInt32(r(a, b)),
        (Value::UInt64(a), Value::UInt64(b)) => DomainRange::UInt64(r(a, b)),
        (Value::Float32(a), Value::Float32(b)) => DomainRange::Float32(r(a, b)),
        (Value::Float64(a), Value::Float64(b)) => DomainRange::Float64(r(a, b)),
        (Value::Int64(a), Value::Int64(b)) => DomainRange::Int64(r(a, b)),
        (a, b) => DomainRange::Bytes(r(bytes_of(a), bytes_of(b))),
    }
}

fn bytes_of(v: Value) -> Vec<u8> {
    match v {
        Value::Bytes(b) => b,
        _ => Vec::new(),
    }
}

/// Which datatypes a Rust type stands for ([`super::CellType::accepts`]).
type Accepts = fn(Datatype) -> bool;

/// Builds an [`Attribute`]: its name and datatype, then how many values a
/// cell holds, whether it may be null, its fill value and filters.
#[derive(Debug, Clone)]
#[must_use]
pub struct AttributeBuilder {
    name: String,
    datatype: Datatype,
    /// Values per cell; `None`: var-sized.
    cell_val_num: Option<u32>,
    nullable: bool,
    fill_value: Option<Vec<u8>>,
    /// The Rust type the fill value was given as, and its datatypes.
    fill_type: Option<(&'static str, Accepts)>,
    filters: Vec<Filter>,
}

impl AttributeBuilder {
    /// An attribute named `name` of `datatype`, one value per cell.
    pub fn new(name: impl Into<String>, datatype: Datatype) -> Self {
        AttributeBuilder {
            name: name.into(),
            datatype,
            cell_val_num: Some(1),
            nullable: false,
            fill_value: None,
            fill_type: None,
            filters: Vec::new(),
        }
    }

    /// Cells of any number of values (strings: [`Datatype::StringUtf8`]
    /// with `var()`).
    pub fn var(mut self) -> Self {
        self.cell_val_num = None;
        self
    }

    /// Cells of exactly `n` values (0 is refused by `build`).
    pub fn cell_val_num(mut self, n: u32) -> Self {
        self.cell_val_num = Some(n);
        self
    }

    /// Cells may be null.
    pub fn nullable(mut self) -> Self {
        self.nullable = true;
        self
    }

    /// The value of cells never written (dense arrays), of a
    /// one-value-per-cell attribute; default: the datatype's own.
    pub fn fill_value<T: super::CellType>(mut self, v: T) -> Self {
        let mut b = Vec::new();
        v.put_le(&mut b);
        self.fill_value = Some(b);
        self.fill_type = Some((T::NAME, T::accepts));
        self
    }

    /// Its filter pipeline.
    pub fn filters(mut self, f: impl IntoIterator<Item = Filter>) -> Self {
        self.filters = f.into_iter().collect();
        self
    }

    fn build(self) -> Result<Attribute, Error> {
        let field = |what: &str| format!("attributes.{}.{what}", self.name);
        let size = self.datatype.size() as usize;
        let cell_val_num = match self.cell_val_num {
            None => CellValNum::Var,
            Some(n) => CellValNum::Fixed(
                NonZeroU32::new(n)
                    .ok_or_else(|| schema_err(field("cell_val_num"), "must be at least 1"))?,
            ),
        };
        if let Some((name, accepts)) = self.fill_type {
            if !accepts(self.datatype) {
                return Err(schema_err(
                    field("fill_value"),
                    format!("a {name} is not a {} value", self.datatype.name()),
                ));
            }
        }
        let fill_value = match self.fill_value {
            Some(b) if b.len() != size || self.cell_val_num != Some(1) => {
                return Err(schema_err(
                    field("fill_value"),
                    format!(
                        "a fill value is one {} value of a one-value-per-cell attribute",
                        self.datatype.name()
                    ),
                ))
            }
            Some(b) => b,
            None => {
                let n = self.cell_val_num.unwrap_or(1) as usize;
                crate::model::default_fill_value(self.datatype).repeat(n)
            }
        };
        Ok(Attribute {
            name: self.name,
            datatype: self.datatype,
            cell_val_num,
            nullable: self.nullable,
            fill_value,
            fill_value_valid: false,
            filters: self.filters,
            enumeration: None,
        })
    }
}

/// Accessors: what a program reading a schema asks (the fields stay
/// public for format tooling under [`crate::raw::model`]).
impl Schema {
    /// The format version it was written in.
    pub fn format_version(&self) -> u32 {
        self.version
    }

    /// Dense or sparse.
    pub fn array_type(&self) -> ArrayType {
        self.array_type
    }

    /// Whether the array is dense.
    pub fn is_dense(&self) -> bool {
        self.array_type == ArrayType::Dense
    }

    /// The order of cells within a tile.
    pub fn cell_order(&self) -> Layout {
        self.cell_order
    }

    /// The order of tiles.
    pub fn tile_order(&self) -> Layout {
        self.tile_order
    }

    /// Cells per data tile (sparse arrays).
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Whether cells with equal coordinates are all kept (sparse arrays).
    pub fn allows_duplicates(&self) -> bool {
        self.allows_duplicates
    }

    /// The dimensions, in order.
    pub fn dimensions(&self) -> &[Dimension] {
        &self.dimensions
    }

    /// The attributes, in order.
    pub fn attributes(&self) -> &[Attribute] {
        &self.attributes
    }

    /// The enumerations (with their labels where loaded from their files).
    pub fn enumerations(&self) -> &[Enumeration] {
        &self.enumerations
    }

    /// The filters of coordinates (dimensions with none of their own).
    pub fn coords_filters(&self) -> &[Filter] {
        &self.coords_filters
    }

    /// The filters of var-sized fields' offsets.
    pub fn offsets_filters(&self) -> &[Filter] {
        &self.offsets_filters
    }

    /// The filters of nullable fields' validity.
    pub fn validity_filters(&self) -> &[Filter] {
        &self.validity_filters
    }

    /// The dimension labels.
    pub fn dimension_labels(&self) -> &[DimensionLabel] {
        &self.dimension_labels
    }

    /// The current domain, where set.
    pub fn current_domain(&self) -> Option<&CurrentDomain> {
        self.current_domain.as_ref()
    }
}
