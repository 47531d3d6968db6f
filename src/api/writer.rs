//! [`WriteBuilder`]: typed columns in, one committed fragment out.

use std::path::Path;

use super::range::{fit, IntoDimRange};
use super::types::CellType;
use super::{Array, Error};
use crate::array::FieldInfo;
use crate::format::{ArrayType, Datatype};
use crate::model::value;
use crate::read::{Bound, DimRange};
use crate::write::{Column, FragmentInfo, FragmentWriter, WriteOptions};

/// What a column handed to the writer holds, to check against the field.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Values of a [`CellType`].
    Typed {
        name: &'static str,
        accepts: fn(Datatype) -> bool,
    },
    /// Strings.
    Text,
}

impl Kind {
    fn of<T: CellType>() -> Self {
        Kind::Typed {
            name: T::NAME,
            accepts: T::accepts,
        }
    }
}

/// Writes one fragment into an [`Array`] from typed columns, one per field:
/// a dense array takes every attribute and the region the cells cover (a
/// range per dimension, default its whole domain; cells in row-major order
/// of the region); a sparse array takes every dimension's coordinates and
/// every attribute, cells in any order. Made by [`Array::write`]; nothing is
/// written until [`WriteBuilder::commit`].
///
/// ```
/// use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};
///
/// let path = std::env::temp_dir().join(format!("tiledb-codec-doc-write-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&path);
/// let schema = SchemaBuilder::sparse()
///     .dimension(DimensionBuilder::new("id", Datatype::Int64).domain(0i64..=999).tile_extent(100i64))
///     .attribute(AttributeBuilder::new("name", Datatype::StringUtf8).var())
///     .attribute(AttributeBuilder::new("score", Datatype::Float32).nullable())
///     .build()?;
/// let array = Array::create(&path, &schema)?;
/// array
///     .write()
///     .column("id", &[7i64, 3, 5])
///     .strings("name", &["seven", "three", "five"])
///     .nullable("score", &[Some(0.5f32), None, Some(2.0)])
///     .commit()?;
///
/// let batch = Array::open(&path)?.reader().read()?;
/// assert_eq!(&*batch.column::<i64>("id")?, &[3, 5, 7]);
/// assert_eq!(batch.strings("name")?, ["three", "five", "seven"]);
/// assert_eq!(batch.nullable::<f32>("score")?, [None, Some(2.0), Some(0.5)]);
/// # std::fs::remove_dir_all(&path).unwrap();
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
#[must_use = "nothing is written until commit"]
pub struct WriteBuilder<'a> {
    array: &'a Array,
    columns: Vec<(Column, Kind)>,
    ranges: Vec<(String, DimRange)>,
    opts: WriteOptions,
}

impl<'a> WriteBuilder<'a> {
    pub(crate) fn new(array: &'a Array) -> Self {
        WriteBuilder {
            array,
            columns: Vec::new(),
            ranges: Vec::new(),
            opts: WriteOptions::default(),
        }
    }

    fn push(mut self, c: Column, kind: Kind) -> Self {
        self.columns.push((c, kind));
        self
    }

    /// The cells of a fixed-size field, values back to back (a field of `k`
    /// values per cell takes `k` values per cell).
    pub fn column<T: CellType>(self, name: &str, values: &[T]) -> Self {
        let bytes = zerocopy::IntoBytes::as_bytes(values);
        let data = if cfg!(target_endian = "little") {
            bytes.to_vec()
        } else {
            let mut d = Vec::with_capacity(bytes.len());
            values.iter().for_each(|v| v.put_le(&mut d));
            d
        };
        self.push(Column::fixed(name, data), Kind::of::<T>())
    }

    /// The cells of a var-sized field, each its own list of values.
    pub fn var<T: CellType, C: AsRef<[T]>>(self, name: &str, cells: &[C]) -> Self {
        let mut data = Vec::new();
        let mut offsets = Vec::with_capacity(cells.len());
        for c in cells {
            offsets.push(data.len() as u64);
            c.as_ref().iter().for_each(|v| v.put_le(&mut data));
        }
        self.push(Column::var(name, data, offsets), Kind::of::<T>())
    }

    /// The cells of a var-sized text field (STRING_ASCII, STRING_UTF8,
    /// CHAR), or of a string dimension's coordinates.
    pub fn strings<S: AsRef<str>>(self, name: &str, cells: &[S]) -> Self {
        let bytes: Vec<&[u8]> = cells.iter().map(|s| s.as_ref().as_bytes()).collect();
        self.push(Column::from_values(name, &bytes), Kind::Text)
    }

    /// The cells of a nullable field of one value per cell (`None`: null).
    pub fn nullable<T: CellType>(self, name: &str, cells: &[Option<T>]) -> Self {
        let size = std::mem::size_of::<T>();
        let mut data = Vec::with_capacity(cells.len() * size);
        for c in cells {
            match c {
                Some(v) => v.put_le(&mut data),
                None => data.resize(data.len() + size, 0),
            }
        }
        let validity = cells.iter().map(|c| u8::from(c.is_some())).collect();
        self.push(
            Column::fixed(name, data).with_validity(validity),
            Kind::of::<T>(),
        )
    }

    /// The cells of a nullable var-sized field, each its own list of
    /// values (`None`: null).
    pub fn nullable_var<T: CellType, C: AsRef<[T]>>(self, name: &str, cells: &[Option<C>]) -> Self {
        let mut data = Vec::new();
        let mut offsets = Vec::with_capacity(cells.len());
        for c in cells {
            offsets.push(data.len() as u64);
            if let Some(c) = c {
                c.as_ref().iter().for_each(|v| v.put_le(&mut data));
            }
        }
        let validity = cells.iter().map(|c| u8::from(c.is_some())).collect();
        self.push(
            Column::var(name, data, offsets).with_validity(validity),
            Kind::of::<T>(),
        )
    }

    /// The cells of a nullable text field (`None`: null).
    pub fn nullable_strings<S: AsRef<str>>(self, name: &str, cells: &[Option<S>]) -> Self {
        let bytes: Vec<&[u8]> = cells
            .iter()
            .map(|s| s.as_ref().map_or(&[][..], |s| s.as_ref().as_bytes()))
            .collect();
        let validity = cells.iter().map(|c| u8::from(c.is_some())).collect();
        self.push(
            Column::from_values(name, &bytes).with_validity(validity),
            Kind::Text,
        )
    }

    /// Dense arrays: the cells cover `range` of dimension `dim` (default:
    /// its whole domain).
    pub fn range(mut self, dim: &str, range: impl IntoDimRange) -> Self {
        self.ranges.push((dim.to_string(), range.into_dim_range()));
        self
    }

    /// The fragment's timestamp in milliseconds (default: now, and later
    /// than every fragment already there).
    pub fn timestamp(mut self, millis: u64) -> Self {
        self.opts.timestamp = Some(millis);
        self
    }

    /// Every option of the lower-level writer (format version, memory,
    /// scratch folder, encryption key).
    pub fn options(mut self, opts: WriteOptions) -> Self {
        self.opts = opts;
        self
    }

    /// Writes the fragment and commits it. The [`Array`] it was made from
    /// still sees the fragments it saw when opened; open the array again to
    /// read the new one.
    pub fn commit(self) -> Result<CommittedFragment, Error> {
        let schema = &self.array.reader.schema;
        for (c, kind) in &self.columns {
            let f = FieldInfo::lookup(schema, &c.name).ok_or_else(|| Error::NoSuchField {
                field: c.name.clone(),
                available: self.array.field_names(),
            })?;
            let ok = match kind {
                Kind::Typed { accepts, .. } => accepts(f.datatype),
                Kind::Text => value::is_text(f.datatype),
            };
            if !ok {
                return Err(Error::WrongType {
                    field: c.name.clone(),
                    datatype: f.datatype,
                    requested: match kind {
                        Kind::Typed { name, .. } => name,
                        Kind::Text => "&str",
                    },
                });
            }
        }
        let columns: Vec<Column> = self.columns.into_iter().map(|(c, _)| c).collect();
        let path = self.array.path();
        let mut w = if schema.array_type == ArrayType::Dense {
            let rect = dense_region(self.array, &self.ranges)?;
            FragmentWriter::dense(path, &rect, self.opts)?
        } else {
            if let Some((dim, _)) = self.ranges.first() {
                return Err(Error::Range {
                    dimension: dim.clone(),
                    what: "a sparse fragment takes coordinates, not a region".into(),
                });
            }
            FragmentWriter::sparse(path, self.opts)?
        };
        w.write(&columns)?;
        Ok(CommittedFragment { info: w.finish()? })
    }
}

/// A fragment a [`WriteBuilder`] committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommittedFragment {
    info: FragmentInfo,
}

impl CommittedFragment {
    /// The fragment's folder name (`__t1_t2_uuid_v`).
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// The fragment's folder.
    pub fn path(&self) -> &Path {
        &self.info.path
    }

    /// The format version written.
    pub fn format_version(&self) -> u32 {
        self.info.version
    }

    /// The fragment's timestamp (milliseconds; the first of its range).
    pub fn timestamp(&self) -> u64 {
        self.info.timestamp
    }

    /// The cells written (after dropping duplicates).
    pub fn cell_count(&self) -> u64 {
        self.info.cells
    }

    /// The duplicate cells dropped (sparse arrays without duplicates).
    pub fn duplicates_dropped(&self) -> u64 {
        self.info.duplicates_dropped
    }

    /// The data tiles written per field.
    pub fn tile_count(&self) -> u64 {
        self.info.tiles
    }
}

/// The region of a dense fragment: the given range of each dimension, or
/// its whole domain.
fn dense_region(array: &Array, ranges: &[(String, DimRange)]) -> Result<Vec<(i128, i128)>, Error> {
    let schema = &array.reader.schema;
    for (dim, _) in ranges {
        if !FieldInfo::lookup(schema, dim).is_some_and(|f| f.is_dimension) {
            return Err(Error::NoSuchField {
                field: dim.clone(),
                available: array.field_names(),
            });
        }
    }
    let mut rect = Vec::new();
    for d in &schema.domain.dimensions {
        let name = String::from_utf8_lossy(&d.name).into_owned();
        let f = FieldInfo::lookup(schema, &name).ok_or_else(|| Error::NoSuchField {
            field: name.clone(),
            available: array.field_names(),
        })?;
        let mut given = ranges.iter().filter(|(n, _)| *n == name);
        let r = match (given.next(), given.next()) {
            (Some((_, r)), None) => fit(&name, f.datatype, r.clone())?,
            (Some(_), Some(_)) => {
                return Err(Error::Range {
                    dimension: name,
                    what: "a dense fragment covers one range per dimension".into(),
                })
            }
            (None, _) => {
                let size = f.cell_size() as usize;
                let lo = d
                    .domain
                    .get(..size)
                    .and_then(|b| Bound::of_cell(f.datatype, b));
                let hi = d
                    .domain
                    .get(size..2 * size)
                    .and_then(|b| Bound::of_cell(f.datatype, b));
                match (lo, hi) {
                    (Some(lo), Some(hi)) => DimRange { lo, hi },
                    _ => {
                        return Err(Error::Range {
                            dimension: name,
                            what: "the schema holds no domain for it".into(),
                        })
                    }
                }
            }
        };
        match r {
            DimRange {
                lo: Bound::Int(lo),
                hi: Bound::Int(hi),
            } => rect.push((lo, hi)),
            _ => {
                return Err(Error::Range {
                    dimension: name,
                    what: "dense dimensions take integer ranges".into(),
                })
            }
        }
    }
    Ok(rect)
}
