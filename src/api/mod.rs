//! The facade: open or create an [`Array`], read it through a
//! [`ReaderBuilder`] into typed [`Batch`]es, write fragments from typed
//! columns through a [`WriteBuilder`], build schemas with
//! [`SchemaBuilder`].
//!
//! Everything here is re-exported at the crate root. The layers beneath
//! (`read`, `write`, `array`, `format`) are reached through
//! [`crate::raw`] for what the facade does not say.

mod aggregate;
mod batch;
mod error;
mod fragment;
mod maintain;
mod open;
mod range;
mod reader;
mod schema;
mod types;
mod writer;

use std::path::{Path, PathBuf};

pub use aggregate::AggregateValue;
pub use batch::Batch;
pub use error::{Error, Result};
pub use fragment::FragmentInfo;
pub use maintain::ConsolidationMode;
pub use open::OpenOptions;
pub use range::IntoDimRange;
pub use reader::{BatchReader, Condition, ReaderBuilder, Target};
pub use schema::{AttributeBuilder, DimensionBuilder, SchemaBuilder};
pub use types::CellType;
pub use writer::{CommittedFragment, WriteBuilder};

use std::collections::BTreeMap;

use crate::array::metadata::read_array_metadata_at;
use crate::model::{MetadataValue, Schema};
use crate::read::ArrayReader;
use crate::storage::StorageRef;
use crate::write::{create_array_from_schema, CreateOptions};
use crate::ReadOptions;

/// A TileDB array on disk, opened: its schema and fragments are read, cells
/// are read on demand.
///
/// # Reading a 2-D dense float64 subarray
///
/// ```
/// use tiledb_codec::Array;
///
/// let array = Array::open("tests/fixtures/v22/dense_float_2d_colmajor")?;
/// let batch = array.reader().attributes(["f64"]).range("x", 2..=4).range("y", 1..=2).read()?;
/// let v: Vec<f64> = batch.column::<f64>("f64")?.into_owned();
/// assert_eq!(v.len(), 3 * 2);
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
pub struct Array {
    path: PathBuf,
    pub(crate) reader: ArrayReader,
    schema: Schema,
    /// The timestamp range it was opened at ([`OpenOptions::with_time_range`]).
    at: Option<(u64, u64)>,
}

impl std::fmt::Debug for Array {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Array")
            .field("path", &self.path)
            .field("fragments", &self.reader.fragments.len())
            .finish_non_exhaustive()
    }
}

impl Array {
    /// Opens the array at `path` (its schema, its committed fragments),
    /// with the default [`OpenOptions`]. `path` may be a URL of an object
    /// store (`s3://bucket/array`, with the feature `object-store`).
    pub fn open(path: impl AsRef<Path>) -> Result<Array, Error> {
        Self::open_with(path, OpenOptions::default())
    }

    /// Opens the array at `path` with `options`: an encryption key, a
    /// timestamp range, limits, the storage it is in.
    ///
    /// ```
    /// use tiledb_codec::{Array, OpenOptions};
    ///
    /// let path = "tests/fixtures/v22/dense_int_1d";
    /// let t1 = *Array::open(path)?.fragments()[0].timestamps().end();
    /// let first = Array::open_with(path, OpenOptions::new().with_timestamp(t1))?;
    /// assert_eq!(first.fragments().len(), 1);
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn open_with(path: impl AsRef<Path>, options: OpenOptions) -> Result<Array, Error> {
        let path = path.as_ref();
        let at = match options.time_range {
            None => None,
            Some(r) => Some(time_range(path, r)?),
        };
        #[cfg(feature = "object-store")]
        if options.storage.is_none() {
            if let Some(url) = path.to_str().filter(|p| p.contains("://")) {
                let (storage, path) = crate::storage::object::ObjectStorage::from_url(
                    url,
                    options.store_options.iter().map(|(k, v)| (k, v.clone())),
                )?;
                return Self::open_range(StorageRef::new(storage), &path, at, &options.read);
            }
        }
        let storage = options.storage.unwrap_or_default();
        Self::open_range(storage, path, at, &options.read)
    }

    /// This array opened again, from the same storage with the same
    /// options and time range: what was written since it was opened.
    pub fn reopen(&self) -> Result<Array, Error> {
        let opts = self.reader.options();
        Self::open_range(self.reader.dir.storage.clone(), &self.path, self.at, opts)
    }

    /// Whether [`Array::reopen`] would now give this same array: its
    /// folders list the same names as when it was opened (no fragment,
    /// commit, consolidation, vacuum, schema or metadata file added or
    /// removed since; TileDB never changes such a file once it has its
    /// name). Local folders whose last change lies more than a few
    /// seconds before the array was opened are compared by their stamps
    /// (inode, modification and change times: `Storage::stamp`); others,
    /// and objects in a bucket, are listed again as opening lists them.
    /// Nothing else is read, so a program keeping an array across requests
    /// can ask this instead of opening it again each time.
    ///
    /// ```
    /// use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};
    ///
    /// let path = std::env::temp_dir().join(format!("tiledb-codec-doc-current-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&path);
    /// let schema = SchemaBuilder::sparse()
    ///     .dimension(DimensionBuilder::new("d", Datatype::Int32).domain(0i32..=9).tile_extent(10i32))
    ///     .attribute(AttributeBuilder::new("a", Datatype::Int32))
    ///     .build()?;
    /// let array = Array::create(&path, &schema)?;
    /// assert!(array.is_current()?);
    /// // Another handle writes a fragment: this one is no longer current.
    /// Array::open(&path)?.write().column("d", &[1i32]).column("a", &[7i32]).commit()?;
    /// assert!(!array.is_current()?);
    /// assert!(array.reopen()?.is_current()?);
    /// # std::fs::remove_dir_all(&path).unwrap();
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn is_current(&self) -> Result<bool, Error> {
        Ok(self.reader.dir.unchanged()?)
    }

    fn open_range(
        storage: StorageRef,
        path: &Path,
        at: Option<(u64, u64)>,
        opts: &ReadOptions,
    ) -> Result<Array, Error> {
        let path = path.to_path_buf();
        let reader = ArrayReader::open_in(storage, &path, at, opts)?;
        let schema = read_schema(&reader)?;
        Ok(Array {
            path,
            reader,
            schema,
            at,
        })
    }

    /// Creates an array at `path` with `schema` (made by
    /// [`SchemaBuilder`]), in the format version this crate writes, and
    /// opens it. Fails if something is already there (an empty folder is
    /// fine). This is the one way to create an array; [`Array::write`] is
    /// the one way to write cells into it.
    ///
    /// ```
    /// use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, Layout, SchemaBuilder};
    ///
    /// let path = std::env::temp_dir().join(format!("tiledb-codec-doc-create-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&path);
    /// let schema = SchemaBuilder::dense()
    ///     .dimension(DimensionBuilder::new("row", Datatype::Uint32).domain(0u32..=99).tile_extent(10u32))
    ///     .dimension(DimensionBuilder::new("col", Datatype::Uint32).domain(0u32..=9).tile_extent(10u32))
    ///     .attribute(AttributeBuilder::new("v", Datatype::Float64))
    ///     .cell_order(Layout::ColMajor)
    ///     .build()?;
    /// let array = Array::create(&path, &schema)?;
    /// assert!(array.fragments().is_empty());
    /// assert_eq!(array.field_names(), ["row", "col", "v"]);
    /// // A second creator finds the array there.
    /// assert!(Array::create(&path, &schema).is_err());
    /// # std::fs::remove_dir_all(&path).unwrap();
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn create(path: impl AsRef<Path>, schema: &Schema) -> Result<Array, Error> {
        Self::create_with(path, schema, &CreateOptions::default())
    }

    /// [`Array::create`] with options (format version, timestamp,
    /// encryption key; an encrypted array is opened with its key).
    pub fn create_with(
        path: impl AsRef<Path>,
        schema: &Schema,
        opts: &CreateOptions,
    ) -> Result<Array, Error> {
        create_array_from_schema(path.as_ref(), schema, opts)?;
        Self::open_with(
            path,
            OpenOptions::new().with_encryption_key(opts.encryption_key),
        )
    }

    /// The array's schema (the newest one, which reads use).
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The committed fragments, oldest first (the ones reads see). Each
    /// says its name, timestamps, format version and typed non-empty
    /// domain ([`FragmentInfo::non_empty_domain`]).
    ///
    /// ```
    /// use tiledb_codec::{Array, DomainRange};
    ///
    /// let array = Array::open("tests/fixtures/v22/dense_int_1d")?;
    /// for f in array.fragments() {
    ///     let domain = f.non_empty_domain()?.expect("every fragment here has one");
    ///     let DomainRange::Int32(d) = &domain[0] else { panic!("d is INT32") };
    ///     println!("{} (t={:?}): d in {}..={}", f.name(), f.timestamps(), d.start, d.end);
    ///     assert!(f.is_dense() && f.format_version() >= 1);
    /// }
    /// assert_eq!(array.fragments().len(), 3);
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn fragments(&self) -> Vec<FragmentInfo<'_>> {
        self.reader
            .fragments
            .iter()
            .map(FragmentInfo::new)
            .collect()
    }

    /// The array metadata, by key (later writes replace earlier ones,
    /// deletions remove them). [`MetadataValue::values`] and
    /// [`MetadataValue::as_str`] give the values typed.
    /// A consolidation and vacuum of the metadata since the array was
    /// opened does not make it fail: the files are listed again.
    pub fn metadata(&self) -> Result<BTreeMap<String, MetadataValue>, Error> {
        Ok(self
            .reader
            .retrying(|r| read_array_metadata_at(&r.dir, self.at, r.options()))?)
    }

    /// Where the array is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A read of this array, to say what to read.
    pub fn reader(&self) -> ReaderBuilder<'_> {
        ReaderBuilder::new(self)
    }

    /// A fragment to write into this array, to hand columns.
    pub fn write(&self) -> WriteBuilder<'_> {
        WriteBuilder::new(self)
    }

    /// The names of the dimensions, then of the attributes.
    pub fn field_names(&self) -> Vec<String> {
        let s = &self.reader.schema;
        let dims = s.domain.dimensions.iter().map(|d| &d.name);
        let attrs = s.attributes.iter().map(|a| &a.name);
        dims.chain(attrs)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect()
    }
}

/// A timestamp range as `(first, last)` milliseconds, both included.
fn time_range(path: &Path, at: impl std::ops::RangeBounds<u64>) -> Result<(u64, u64), Error> {
    use std::ops::Bound::*;
    let empty = || Error::Query {
        path: path.to_path_buf(),
        what: "the timestamp range holds no time".into(),
    };
    let start = match at.start_bound() {
        Included(t) => *t,
        Excluded(t) => t.checked_add(1).ok_or_else(empty)?,
        Unbounded => 0,
    };
    let end = match at.end_bound() {
        Included(t) => *t,
        Excluded(t) => t.checked_sub(1).ok_or_else(empty)?,
        Unbounded => u64::MAX,
    };
    if start > end {
        return Err(empty());
    }
    Ok((start, end))
}

/// The typed schema of an opened array, with its enumerations' values
/// (`__schema/__enumerations`, format_spec/enumeration.md).
fn read_schema(reader: &ArrayReader) -> Result<Schema, Error> {
    let root = &reader.dir.root;
    Ok(crate::array::schema::read_typed_schema(
        &*reader.dir.storage,
        root,
        &reader.schema,
        root,
        reader.options(),
    )?)
}

impl MetadataValue {
    /// The values as `T` (see [`CellType`] for which datatypes each type
    /// reads); an [`Error::WrongType`] naming the datatype otherwise.
    pub fn values<T: CellType>(&self) -> Result<Vec<T>, Error> {
        if !T::accepts(self.datatype) {
            return Err(Error::WrongType {
                field: "metadata value".into(),
                datatype: self.datatype,
                requested: T::NAME,
            });
        }
        Ok(types::view::<T>(&self.bytes).into_owned())
    }

    /// The value as text, for a text datatype (STRING_ASCII, STRING_UTF8,
    /// CHAR) holding UTF-8; `None` otherwise.
    pub fn as_str(&self) -> Option<&str> {
        crate::model::value::is_text(self.datatype)
            .then(|| std::str::from_utf8(&self.bytes).ok())
            .flatten()
    }
}
