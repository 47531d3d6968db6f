//! [`Batch`]: cells of a read, with typed access to each field's column.

use std::borrow::Cow;

use super::types::{view, CellType};
use super::Error;
use crate::model::value;
use crate::read::{Cells, Column};

/// Cells a read returned: one column per field (the dimensions first, unless
/// left out with [`ReaderBuilder::coordinates`](super::ReaderBuilder::coordinates),
/// then the attributes read), all with [`Batch::len`] cells.
///
/// Columns are asked for by name and Rust type; a type that does not match
/// the field's datatype (see [`CellType`]) is an [`Error::WrongType`].
///
/// ```
/// use tiledb_codec::Array;
///
/// let array = Array::open("tests/fixtures/v22/dense_var_nullable")?;
/// let batch = array.reader().range("d", 0..=3).read()?;
/// assert_eq!(&*batch.column::<i32>("d")?, &[0, 1, 2, 3]);
/// let n: Vec<Option<i32>> = batch.nullable::<i32>("n")?;
/// assert_eq!(n.len(), 4);
/// let s: Vec<&str> = batch.strings("s")?;
/// assert_eq!(s.len(), 4);
/// assert!(batch.column::<f64>("n").is_err()); // n is INT32
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Batch {
    cells: Cells,
}

impl Batch {
    pub(crate) fn new(cells: Cells) -> Self {
        Batch { cells }
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len
    }

    /// Whether the batch holds no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.len == 0
    }

    /// The names of the fields the batch holds, in column order.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.cells.columns.iter().map(|c| c.field.name.as_str())
    }

    /// The untyped column of field `name` (its bytes, offsets and validity).
    pub(crate) fn raw(&self, name: &str) -> Result<&Column, Error> {
        self.cells.column(name).ok_or_else(|| Error::NoSuchField {
            field: name.to_string(),
            available: self.fields().map(str::to_string).collect(),
        })
    }

    /// The cells as the lower-level reader returns them
    /// ([`crate::raw::cells`]).
    pub(crate) fn cells(&self) -> &Cells {
        &self.cells
    }

    /// The cells as the lower-level reader returns them, taken out
    /// ([`crate::raw::into_cells`]).
    pub(crate) fn into_cells(self) -> Cells {
        self.cells
    }

    /// A column whose datatype `T` stands for.
    fn typed<T: CellType>(&self, name: &str) -> Result<&Column, Error> {
        let c = self.raw(name)?;
        if !T::accepts(c.field.datatype) {
            return Err(Error::WrongType {
                field: name.to_string(),
                datatype: c.field.datatype,
                requested: T::NAME,
            });
        }
        Ok(c)
    }

    /// The values of a fixed-size field, every cell's values back to back
    /// (a field of `k` values per cell gives `k * len()` values). Borrowed
    /// from the batch where the bytes are aligned for `T`, else copied;
    /// `.into_owned()` makes a `Vec<T>`. Null cells hold zeros (see
    /// [`Batch::validity`], [`Batch::nullable`]).
    ///
    /// Errors: [`Error::NoSuchField`], [`Error::WrongType`], and
    /// [`Error::Shape`] for a var-sized field (see [`Batch::var`]).
    pub fn column<T: CellType>(&self, name: &str) -> Result<Cow<'_, [T]>, Error> {
        let c = self.typed::<T>(name)?;
        let fixed = c.field.cell_val_num.is_some()
            && c.data().len() as u64 == c.len() as u64 * c.field.cell_size();
        if !fixed {
            return Err(Error::Shape {
                field: name.to_string(),
                what: "its cells are var-sized: read them with `var` or `strings`".into(),
            });
        }
        Ok(view::<T>(c.data()))
    }

    /// The cells of a field of one value per cell, `None` where null (every
    /// cell is `Some` for a field that is not nullable).
    pub fn nullable<T: CellType>(&self, name: &str) -> Result<Vec<Option<T>>, Error> {
        let c = self.typed::<T>(name)?;
        let size = std::mem::size_of::<T>();
        (0..c.len())
            .map(|i| match c.get(i) {
                None => Ok(None),
                Some(b) if b.len() == size => Ok(Some(T::from_le(b))),
                Some(b) => Err(Error::Shape {
                    field: name.to_string(),
                    what: format!(
                        "cell {i} holds {} bytes, not one {} value",
                        b.len(),
                        T::NAME
                    ),
                }),
            })
            .collect()
    }

    /// The cells of a var-sized (or fixed-size) field, each as its values;
    /// a null cell is empty.
    pub fn var<T: CellType>(&self, name: &str) -> Result<Vec<Cow<'_, [T]>>, Error> {
        let c = self.typed::<T>(name)?;
        let size = std::mem::size_of::<T>();
        (0..c.len())
            .map(|i| {
                let b = c.get(i).unwrap_or(&[]);
                if b.len() % size != 0 {
                    return Err(Error::Shape {
                        field: name.to_string(),
                        what: format!("cell {i} is not whole {} values", T::NAME),
                    });
                }
                Ok(view::<T>(b))
            })
            .collect()
    }

    /// The cells of a text field (STRING_ASCII, STRING_UTF8, CHAR) as
    /// strings; a null cell is `""`. A cell that is not UTF-8 is an
    /// [`Error::Utf8`].
    pub fn strings(&self, name: &str) -> Result<Vec<&str>, Error> {
        Ok(self
            .nullable_strings(name)?
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect())
    }

    /// The cells of a text field as strings, `None` where null.
    pub fn nullable_strings(&self, name: &str) -> Result<Vec<Option<&str>>, Error> {
        let c = self.raw(name)?;
        if !value::is_text(c.field.datatype) {
            return Err(Error::WrongType {
                field: name.to_string(),
                datatype: c.field.datatype,
                requested: "&str",
            });
        }
        (0..c.len())
            .map(|i| {
                c.get(i)
                    .map(|b| {
                        std::str::from_utf8(b).map_err(|e| Error::Utf8 {
                            field: name.to_string(),
                            cell: i,
                            source: e,
                        })
                    })
                    .transpose()
            })
            .collect()
    }

    /// Which cells of field `name` hold a value (`false`: null); every cell
    /// does for a field that is not nullable.
    pub fn validity(&self, name: &str) -> Result<Vec<bool>, Error> {
        let c = self.raw(name)?;
        Ok(match c.validity() {
            Some(v) => v.iter().map(|b| *b != 0).collect(),
            None => vec![true; c.len()],
        })
    }
}
