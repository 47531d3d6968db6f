//! The typed model to and from the format's tables, for format tooling:
//! extension traits, so that the model's types at the crate root (the
//! facade) carry no table of the format in their own methods. Bring the
//! trait in scope to call its methods (`use
//! tiledb_codec::raw::model::SchemaTables;` then `Schema::from_table(..)`).

use std::path::Path;

use super::{DataOrder, Enumeration, Filter, ModelError, Schema, WebpFormat};
use crate::error::Result;
use crate::format::{self, FilterType};

/// A [`Schema`] to and from the format's `ArraySchema` table.
pub trait SchemaTables: Sized {
    /// The schema of an `ArraySchema` table (read from `path`, named in
    /// errors) with the enumerations it names, read from
    /// `__schema/__enumerations`. Unknown codes and impossible counts are
    /// decode errors naming the table and field.
    fn from_table(
        s: &format::ArraySchema,
        enumerations: &[format::Enumeration],
        path: &Path,
    ) -> Result<Self>;

    /// The schema's `ArraySchema` table in format `version` (its
    /// enumerations are separate tables: [`SchemaTables::enumeration_tables`]).
    fn to_table(&self, version: u32) -> std::result::Result<format::ArraySchema, ModelError>;

    /// The `Enumeration` tables of the schema's enumerations.
    fn enumeration_tables(&self) -> Vec<format::Enumeration>;
}

impl SchemaTables for Schema {
    fn from_table(
        s: &format::ArraySchema,
        enumerations: &[format::Enumeration],
        path: &Path,
    ) -> Result<Self> {
        Schema::from_table(s, enumerations, path)
    }

    fn to_table(&self, version: u32) -> std::result::Result<format::ArraySchema, ModelError> {
        Schema::to_table(self, version)
    }

    fn enumeration_tables(&self) -> Vec<format::Enumeration> {
        Schema::enumeration_tables(self)
    }
}

/// A [`Filter`] to and from the format's `Filter` table.
pub trait FilterTables: Sized {
    /// The filter of a `Filter` table (read from `path`, named in errors).
    fn from_table(f: &format::Filter, path: &Path) -> Result<Self>;

    /// The filter's table in format `version`. `webp_extents` are the tile
    /// extents of dimensions 0 and 1, which a WEBP filter stores; `field`
    /// names the filter in errors.
    fn to_table(
        &self,
        version: u32,
        webp_extents: (u16, u16),
        field: &str,
    ) -> std::result::Result<format::Filter, ModelError>;

    /// The filter's type code.
    fn filter_type(&self) -> FilterType;
}

impl FilterTables for Filter {
    fn from_table(f: &format::Filter, path: &Path) -> Result<Self> {
        Filter::from_table(f, path)
    }

    fn to_table(
        &self,
        version: u32,
        webp_extents: (u16, u16),
        field: &str,
    ) -> std::result::Result<format::Filter, ModelError> {
        Filter::to_table(self, version, webp_extents, field)
    }

    fn filter_type(&self) -> FilterType {
        Filter::filter_type(self)
    }
}

/// An [`Enumeration`] to and from the format's `Enumeration` table.
pub trait EnumerationTables: Sized {
    /// The enumeration of an `Enumeration` table (read from `path`, named
    /// in errors).
    fn from_table(e: &format::Enumeration, path: &Path) -> Result<Self>;

    /// The enumeration's table.
    fn to_table(&self) -> format::Enumeration;
}

impl EnumerationTables for Enumeration {
    fn from_table(e: &format::Enumeration, path: &Path) -> Result<Self> {
        Enumeration::from_table(e, path)
    }

    fn to_table(&self) -> format::Enumeration {
        Enumeration::to_table(self)
    }
}

/// A model enumeration to and from its code in the format.
pub trait FormatCode: Sized {
    /// The format's code.
    type Code;

    /// The value of a code (`None`: a code this crate does not know).
    fn from_code(code: Self::Code) -> Option<Self>;

    /// The value's code.
    fn code(self) -> Self::Code;
}

impl FormatCode for DataOrder {
    type Code = format::DataOrder;

    fn from_code(code: format::DataOrder) -> Option<Self> {
        DataOrder::from_code(code)
    }

    fn code(self) -> format::DataOrder {
        DataOrder::code(self)
    }
}

impl FormatCode for WebpFormat {
    type Code = format::WebpInputFormat;

    fn from_code(code: format::WebpInputFormat) -> Option<Self> {
        WebpFormat::from_code(code)
    }

    fn code(self) -> format::WebpInputFormat {
        WebpFormat::code(self)
    }
}
