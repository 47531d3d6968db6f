//! What the benchmark examples share: the query of one attribute over
//! `DIM=LO:HI` ranges, and the checksum of a FLOAT64 column.

use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::read::{ArrayReader, Cells, DimRange, Query};

pub type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// A query of `attr` alone over `ranges` (dimension name, `LO:HI` text),
/// without coordinates on a dense array (as the engine's `A[...]` reads).
pub fn attribute_query<'r>(
    reader: &ArrayReader,
    attr: &str,
    ranges: impl IntoIterator<Item = (&'r str, &'r str)>,
) -> Res<Query> {
    let dense = reader.schema.array_type == tiledb_codec::raw::format::ArrayType::Dense;
    let mut q = Query::new()
        .with_attributes([attr])
        .with_coordinates(!dense);
    for (dim, text) in ranges {
        let field = FieldInfo::lookup(&reader.schema, dim)
            .filter(|f| f.is_dimension)
            .ok_or_else(|| format!("no dimension {dim:?}"))?;
        q = q.range(dim, DimRange::parse(field.datatype, text)?);
    }
    Ok(q)
}

/// Sum of a FLOAT64 column, nulls left out.
pub fn sum_f64(cells: &Cells, attr: &str) -> Res<f64> {
    let col = cells
        .column(attr)
        .ok_or_else(|| format!("no column {attr:?} in the result"))?;
    let mut sum = 0.0;
    match col.validity() {
        None => {
            for c in col.data().chunks_exact(8) {
                sum += f64::from_le_bytes(c.try_into()?);
            }
        }
        Some(v) => {
            for (c, ok) in col.data().chunks_exact(8).zip(v) {
                if *ok != 0 {
                    sum += f64::from_le_bytes(c.try_into()?);
                }
            }
        }
    }
    Ok(sum)
}
