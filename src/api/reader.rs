//! [`ReaderBuilder`]: what to read, then batches of cells.

use super::batch::Batch;
use super::range::{fit, IntoDimRange};
use super::CellType;
use super::{Array, Error};
use crate::array::FieldInfo;
use crate::read::{Batches, DimRange, Order, Query, QueryCondition, Sink};

/// Says what to read from an [`Array`] (fields, ranges, a condition, an
/// order, batch sizes), then reads it: [`ReaderBuilder::build`] for an
/// iterator of [`Batch`]es, [`ReaderBuilder::read`] for everything in one.
/// Made by [`Array::reader`].
///
/// Mistakes in ranges and field names are reported by `build`/`read`, with
/// the field named.
///
/// ```
/// use tiledb_codec::{Array, Order};
///
/// let array = Array::open("tests/fixtures/v22/sparse_int_2d")?;
/// let mut cells = 0;
/// for batch in array
///     .reader()
///     .attributes(["a"])
///     .range("r", 0..=49)
///     .condition("a > 5")
///     .order(Order::RowMajor)
///     .batch_size(3)
///     .build()?
/// {
///     let batch = batch?;
///     assert!(batch.len() <= 3);
///     assert!(batch.column::<i64>("a")?.iter().all(|a| *a > 5));
///     cells += batch.len();
/// }
/// assert!(cells > 0);
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
#[must_use = "a reader does nothing until built or read"]
pub struct ReaderBuilder<'a> {
    pub(super) array: &'a Array,
    query: Query,
    ranges: Vec<(String, DimRange)>,
    conditions: Vec<Condition>,
}

/// A condition for [`ReaderBuilder::condition`]: text in TileDB-Py's syntax
/// ([`QueryCondition::parse`]; `"a > 5 and s == 'x'"`, parsed when the
/// read is built) or one built in Rust ([`crate::col`];
/// `col("a").gt(5).and(col("s").eq("x"))`).
#[derive(Debug, Clone)]
pub struct Condition(ConditionInner);

#[derive(Debug, Clone)]
enum ConditionInner {
    Text(String),
    Built(QueryCondition),
}

impl Condition {
    /// The condition, parsed if it is text.
    pub fn into_query_condition(self) -> Result<QueryCondition, Error> {
        match self.0 {
            ConditionInner::Text(t) => Ok(QueryCondition::parse(&t)?),
            ConditionInner::Built(c) => Ok(c),
        }
    }
}

impl From<&str> for Condition {
    fn from(text: &str) -> Self {
        Condition(ConditionInner::Text(text.to_string()))
    }
}

impl From<String> for Condition {
    fn from(text: String) -> Self {
        Condition(ConditionInner::Text(text))
    }
}

impl From<QueryCondition> for Condition {
    fn from(c: QueryCondition) -> Self {
        Condition(ConditionInner::Built(c))
    }
}

impl From<&QueryCondition> for Condition {
    fn from(c: &QueryCondition) -> Self {
        Condition(ConditionInner::Built(c.clone()))
    }
}

impl<'a> ReaderBuilder<'a> {
    pub(crate) fn new(array: &'a Array) -> Self {
        ReaderBuilder {
            array,
            query: Query::default(),
            ranges: Vec::new(),
            conditions: Vec::new(),
        }
    }

    /// Reads only these attributes (default: all). Dimensions come too
    /// unless [`ReaderBuilder::coordinates`] says otherwise.
    pub fn attributes<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.query.attributes = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Keeps the cells of dimension `dim` in `range` (inclusive, see
    /// [`IntoDimRange`]); several ranges on one dimension read their union.
    pub fn range(mut self, dim: &str, range: impl IntoDimRange) -> Self {
        self.ranges.push((dim.to_string(), range.into_dim_range()));
        self
    }

    /// Keeps only cells for which `condition` holds: text in TileDB-Py's
    /// syntax (`"a > 5 and s == 'x'"`, parsed when the read is built, a
    /// mistake reported by `build`/`read`) or one built in Rust
    /// ([`crate::col`]). Dense arrays give the cells that fail it their
    /// fill values, as the engine does. Several conditions must all hold.
    ///
    /// ```
    /// use tiledb_codec::{col, Array};
    ///
    /// let array = Array::open("tests/fixtures/v22/sparse_strdim")?;
    /// let typed = array.reader().condition(col("s").ge("b").and(col("i").is_in([1, 2, 3]))).read()?;
    /// let text = array.reader().condition("s >= 'b' and i in [1, 2, 3]").read()?;
    /// assert_eq!(typed.strings("s")?, text.strings("s")?);
    /// assert!(array.reader().condition("s >>= 'b'").read().is_err());
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn condition(mut self, condition: impl Into<Condition>) -> Self {
        self.conditions.push(condition.into());
        self
    }

    /// The order cells come back in (default: row-major).
    pub fn order(mut self, order: Order) -> Self {
        self.query.order = Some(order);
        self
    }

    /// At most this many cells per batch (default: 1,048,576); a dense read hands out at least one
    /// whole row of the outer dimension per batch.
    pub fn batch_size(mut self, cells: usize) -> Self {
        self.query.batch_cells = Some(cells.max(1));
        self
    }

    /// The most memory, in bytes, the read may hold at once for results
    /// and decoded tiles (default: 1 GiB).
    pub fn memory_budget(mut self, bytes: u64) -> Self {
        self.query.memory_budget = Some(bytes);
        self
    }

    /// Whether the dimensions come back as columns too (default: yes).
    pub fn coordinates(mut self, yes: bool) -> Self {
        self.query.skip_coordinates = !yes;
        self
    }

    /// The query this builder makes, checked against the schema.
    pub(crate) fn query(&self) -> Result<Query, Error> {
        let schema = &self.array.reader.schema;
        let mut q = self.query.clone();
        for c in &self.conditions {
            let c = c.clone().into_query_condition()?;
            q.condition = Some(match q.condition.take() {
                None => c,
                Some(have) => have.and(c),
            });
        }
        let known = || field_names(schema);
        for (dim, r) in &self.ranges {
            let f = FieldInfo::lookup(schema, dim)
                .filter(|f| f.is_dimension)
                .ok_or_else(|| Error::NoSuchField {
                    field: dim.clone(),
                    available: known(),
                })?;
            q = q.range(dim, fit(dim, f.datatype, r.clone())?);
        }
        for a in q.attributes.iter().flatten() {
            if FieldInfo::lookup(schema, a).is_none_or(|f| f.is_dimension) {
                return Err(Error::NoSuchField {
                    field: a.clone(),
                    available: known(),
                });
            }
        }
        Ok(q)
    }

    /// Starts the read: an iterator of batches of at most
    /// [`ReaderBuilder::batch_size`] cells.
    pub fn build(self) -> Result<BatchReader<'a>, Error> {
        let q = self.query()?;
        Ok(BatchReader {
            inner: self.array.reader.batches(&q)?,
        })
    }

    /// Starts the read as Arrow record batches (feature `arrow`): an
    /// [`RecordBatchReader`](crate::arrow::RecordBatchReader) of the same batches as
    /// [`ReaderBuilder::build`], typed as [`crate::arrow`] says.
    ///
    /// ```
    /// use tiledb_codec::arrow::RecordBatchReader;
    /// use tiledb_codec::{col, Array};
    ///
    /// let array = Array::open("tests/fixtures/v22/sparse_int_2d")?;
    /// let batches = array.reader().attributes(["a"]).condition(col("a").gt(5)).arrow()?;
    /// assert_eq!(batches.schema().field(2).name(), "a");
    /// let mut rows = 0;
    /// for b in batches {
    ///     rows += b?.num_rows();
    /// }
    /// assert!(rows > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "arrow")]
    pub fn arrow(self) -> Result<crate::arrow::RecordBatches<'a>, Error> {
        let q = self.query()?;
        Ok(crate::arrow::read::record_batches(&self.array.reader, &q)?)
    }

    /// Reads every cell asked for into one batch.
    pub fn read(self) -> Result<Batch, Error> {
        let q = self.query()?;
        Ok(Batch::new(self.array.reader.read(&q)?))
    }

    /// Reads the cells asked for into buffers the caller owns, one
    /// [`Target`] per field (the fields named by the targets replace
    /// [`ReaderBuilder::attributes`]), and returns how many cells each
    /// target now holds at its start.
    ///
    /// A dense read of fixed-size attributes without a condition decodes
    /// its tiles straight into the targets, in parallel: a program that
    /// reads again into the same buffers touches no fresh memory. Other
    /// reads are made as [`ReaderBuilder::read`] makes them, then copied
    /// in. A buffer too small, a var-sized field, a type that does not
    /// stand for the field's datatype, or a nullable attribute without
    /// [`Target::validity`] is an error, and nothing is written.
    ///
    /// ```
    /// use tiledb_codec::{Array, Target};
    ///
    /// let array = Array::open("tests/fixtures/v22/dense_int_2d")?;
    /// let mut a = vec![0i32; 100];
    /// let n = array.reader().read_into(&mut [Target::new("a", &mut a)])?;
    /// let batch = array.reader().attributes(["a"]).coordinates(false).read()?;
    /// assert_eq!(&a[..n], &batch.column::<i32>("a")?[..]);
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn read_into(self, targets: &mut [Target<'_>]) -> Result<usize, Error> {
        let q = self.query()?;
        let reader = &self.array.reader;
        fill_targets(&reader.schema, targets, |sinks| reader.read_into(&q, sinks))
    }
}

/// Each target checked against its field of `schema` (present, of a type
/// standing for its datatype) and handed to `fill` as a sink; the cells
/// `fill` wrote then put in the host's byte order.
fn fill_targets(
    schema: &crate::format::ArraySchema,
    targets: &mut [Target<'_>],
    fill: impl FnOnce(&mut [Sink]) -> crate::error::Result<usize>,
) -> Result<usize, Error> {
    let mut sizes = Vec::with_capacity(targets.len());
    for t in targets.iter() {
        let f = FieldInfo::lookup(schema, &t.name).ok_or_else(|| Error::NoSuchField {
            field: t.name.clone(),
            available: field_names(schema),
        })?;
        if !(t.accepts)(f.datatype) {
            return Err(Error::WrongType {
                field: t.name.clone(),
                datatype: f.datatype,
                requested: t.type_name,
            });
        }
        sizes.push(f.cell_size() as usize);
    }
    let mut sinks: Vec<Sink> = targets
        .iter_mut()
        .map(|t| Sink {
            name: t.name.clone(),
            data: &mut *t.data,
            validity: t.validity.as_deref_mut(),
        })
        .collect();
    let n = fill(&mut sinks)?;
    drop(sinks);
    for (t, size) in targets.iter_mut().zip(sizes) {
        (t.to_native)(&mut t.data[..n * size]);
    }
    Ok(n)
}

/// The names of the attributes and dimensions of `schema`.
fn field_names(schema: &crate::format::ArraySchema) -> Vec<String> {
    let attrs = schema.attributes.iter().map(|a| &a.name);
    let dims = schema.domain.dimensions.iter().map(|d| &d.name);
    attrs
        .chain(dims)
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect()
}

/// A buffer of the caller's that [`ReaderBuilder::read_into`] writes one
/// field's cells into: values of a [`CellType`] that stands for the field's
/// datatype, and for a nullable attribute a validity byte per cell.
pub struct Target<'a> {
    name: String,
    data: &'a mut [u8],
    validity: Option<&'a mut [u8]>,
    accepts: fn(crate::format::Datatype) -> bool,
    type_name: &'static str,
    to_native: fn(&mut [u8]),
}

impl<'a> Target<'a> {
    /// The field `name`'s values go into `values`, from its start.
    pub fn new<T: CellType>(name: impl Into<String>, values: &'a mut [T]) -> Self {
        Self::bytes::<T>(name, zerocopy::IntoBytes::as_mut_bytes(values))
    }

    /// The field `name`'s values go into `bytes`, from its start, as the
    /// bytes of `T` values in the host's order (aligned or not): for memory
    /// typed elsewhere, such as a numpy array's or an Arrow buffer, which a
    /// binding sees as bytes. `T` must stand for the field's datatype, as
    /// with [`Target::new`].
    ///
    /// ```
    /// use tiledb_codec::{Array, Target};
    ///
    /// let array = Array::open("tests/fixtures/v22/dense_int_2d")?;
    /// let mut raw = vec![0u8; 100 * 4];
    /// let n = array.reader().read_into(&mut [Target::bytes::<i32>("a", &mut raw)])?;
    /// let batch = array.reader().attributes(["a"]).coordinates(false).read()?;
    /// assert_eq!(i32::from_ne_bytes(raw[..4].try_into().unwrap()), batch.column::<i32>("a")?[0]);
    /// assert!(array.reader().read_into(&mut [Target::bytes::<f64>("a", &mut raw)]).is_err());
    /// # let _ = n;
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn bytes<T: CellType>(name: impl Into<String>, bytes: &'a mut [u8]) -> Self {
        Target {
            name: name.into(),
            data: bytes,
            validity: None,
            accepts: T::accepts,
            type_name: T::NAME,
            to_native: to_native::<T>,
        }
    }

    /// Each cell's validity goes into `validity` (1 = a value, 0 = null):
    /// needed for a nullable attribute.
    pub fn validity(mut self, validity: &'a mut [u8]) -> Self {
        self.validity = Some(validity);
        self
    }
}

/// Values read as little-endian bytes put in the host's order (nothing to
/// do on little-endian hosts).
fn to_native<T: CellType>(bytes: &mut [u8]) {
    if cfg!(target_endian = "big") {
        for c in bytes.chunks_exact_mut(std::mem::size_of::<T>()) {
            let v = T::from_le(c);
            c.copy_from_slice(zerocopy::IntoBytes::as_bytes(&v));
        }
    }
}

/// The batches of a read ([`ReaderBuilder::build`]).
pub struct BatchReader<'a> {
    inner: Batches<'a>,
}

impl BatchReader<'_> {
    /// The next batch read into buffers the caller owns, one [`Target`]
    /// per field, and how many cells each target now holds at its start;
    /// `None` after the last batch. Fields of the batch without a target
    /// are left out. A dense batch of fixed-size attributes without a
    /// condition is decoded straight into the targets: a loop that reuses
    /// its buffers touches no fresh memory. A buffer too small for the
    /// batch ([`ReaderBuilder::batch_size`] bounds it), a var-sized
    /// field, a type that does not stand for the field's datatype, or a
    /// nullable attribute without [`Target::validity`] is an error, and
    /// nothing is written.
    ///
    /// ```
    /// use tiledb_codec::{Array, Target};
    ///
    /// let array = Array::open("tests/fixtures/v22/dense_int_2d")?;
    /// let mut batches = array.reader().attributes(["a"]).batch_size(30).build()?;
    /// let mut a = vec![0i32; 30];
    /// let mut total = 0i64;
    /// while let Some(n) = batches.next_into(&mut [Target::new("a", &mut a)]) {
    ///     total += a[..n?].iter().map(|&v| i64::from(v)).sum::<i64>();
    /// }
    /// let whole = array.reader().attributes(["a"]).read()?;
    /// assert_eq!(total, whole.column::<i32>("a")?.iter().map(|&v| i64::from(v)).sum::<i64>());
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn next_into(&mut self, targets: &mut [Target<'_>]) -> Option<Result<usize, Error>> {
        let reader: &crate::read::ArrayReader = self.inner.reader;
        let schema = &reader.schema;
        let mut done = false;
        let n = fill_targets(schema, targets, |sinks| match self.inner.next_into(sinks) {
            Some(r) => r,
            None => {
                done = true;
                Ok(0)
            }
        });
        (!done).then_some(n)
    }
}

impl Iterator for BatchReader<'_> {
    type Item = Result<Batch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.inner.next()?.map(Batch::new).map_err(Error::from))
    }
}
