//! A pure-Rust, zero-copy codec for the TileDB on-disk format.
//!
//! Open an [`Array`], say what to read with its [`ReaderBuilder`], and get
//! [`Batch`]es of typed columns; create arrays from a [`SchemaBuilder`] and
//! write fragments from typed columns with a [`WriteBuilder`].
//!
//! Read a 2-D dense float64 subarray into a `Vec<f64>`:
//!
//! ```
//! use tiledb_codec::Array;
//!
//! let array = Array::open("tests/fixtures/v22/dense_float_2d_colmajor")?;
//! let batch = array.reader().range("x", 2..=4).range("y", 1..=2).read()?;
//! let v: Vec<f64> = batch.column::<f64>("f64")?.into_owned();
//! assert_eq!(v.len(), 6);
//! # Ok::<(), tiledb_codec::Error>(())
//! ```
//!
//! Iterate a sparse array with a string dimension, in batches:
//!
//! ```
//! use tiledb_codec::Array;
//!
//! let array = Array::open("tests/fixtures/v22/sparse_strdim")?;
//! let mut cells = 0;
//! for batch in array.reader().range("s", "a"..="m").batch_size(100).build()? {
//!     let batch = batch?;
//!     for (s, v) in batch.strings("s")?.iter().zip(batch.column::<f32>("v")?.iter()) {
//!         println!("{s}: {v}");
//!         cells += 1;
//!     }
//! }
//! assert!(cells > 0);
//! # Ok::<(), tiledb_codec::Error>(())
//! ```
//!
//! Create an array and write a fragment:
//!
//! ```
//! use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};
//!
//! # let path = std::env::temp_dir().join(format!("tiledb-codec-doc-lib-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&path);
//! let schema = SchemaBuilder::dense()
//!     .dimension(DimensionBuilder::new("d", Datatype::Int32).domain(1..=4).tile_extent(2))
//!     .attribute(AttributeBuilder::new("a", Datatype::Float64))
//!     .build()?;
//! let array = Array::create(&path, &schema)?;
//! array.write().column("a", &[0.5, 1.5, 2.5, 3.5]).commit()?;
//! let back = Array::open(&path)?.reader().read()?;
//! assert_eq!(&*back.column::<f64>("a")?, &[0.5, 1.5, 2.5, 3.5]);
//! # std::fs::remove_dir_all(&path).unwrap();
//! # Ok::<(), tiledb_codec::Error>(())
//! ```
//!
//! List fragments with their typed non-empty domains:
//!
//! ```
//! use tiledb_codec::{Array, DomainRange};
//!
//! let array = Array::open("tests/fixtures/v22/dense_int_2d")?;
//! for f in array.fragments() {
//!     let domain = f.non_empty_domain()?.unwrap_or_default();
//!     let [DomainRange::Int64(rows), DomainRange::Int64(cols)] = domain.as_slice() else {
//!         panic!("dense_int_2d has two INT64 dimensions");
//!     };
//!     println!("{}: rows {}..={}, cols {}..={}", f.name(), rows.start, rows.end, cols.start, cols.end);
//!     assert!(1 <= rows.start && rows.end <= 4);
//! }
//! # Ok::<(), tiledb_codec::Error>(())
//! ```
//!
//! The crate root is the facade above; [`raw`] holds the format's layers
//! for format tooling, documented as following the format. There the byte
//! layouts live in `spec/` as declarative tables; a generator turns them
//! into the version-aware codecs of [`raw::format`]. On top of them:
//! [`raw::storage`] maps files, [`raw::tile`] reads (generic) tiles in
//! place, [`raw::filters`] reverses filter pipelines, [`raw::array`] opens
//! arrays, [`raw::read`] and [`raw::write`] read and write cells, and
//! [`raw::model`] is the typed model of a schema. Beside the facade,
//! [`maintain`] consolidates and vacuums. (What the command line does to
//! describe and check arrays, `inspect`, `summary`, `svg` and `verify`, is
//! in its own crate, `tiledb-codec-cli`.) The lower-level reader takes a [`raw::read::Query`] and gives
//! [`raw::read::Cells`]:
//!
//! ```
//! use tiledb_codec::ReadOptions;
//! use tiledb_codec::Datatype;
//! use tiledb_codec::raw::read::{ArrayReader, DimRange, Query, QueryCondition};
//! use tiledb_codec::raw::read::aggregate::{aggregate, Aggregate};
//!
//! let reader = ArrayReader::open("tests/fixtures/v22/dense_int_1d".as_ref(), &ReadOptions::default())?;
//! let cells = reader.read(&Query::default())?;
//! assert_eq!(cells.len, 20);
//! println!("{}", cells.row(0)); // {"a":0,"d":1}
//!
//! // A typed range and a condition: only the tiles they touch are decoded.
//! let q = Query::default()
//!     .with_condition(QueryCondition::parse("a >= 30")?)
//!     .range("d", DimRange::parse(Datatype::Int32, "3:6").map_err(|e| e.to_string()).unwrap());
//! let some = reader.read(&q)?;
//! assert_eq!(some.len, 4); // dense: cells failing the condition hold fill values
//!
//! // The same in batches of at most 2 cells.
//! let batches = reader.batches(&q.clone().with_batch_cells(2))?;
//! assert_eq!(batches.map(|b| b.map(|b| b.len)).sum::<Result<usize, _>>()?, 4);
//!
//! // Aggregates, answered from tile metadata where tiles are covered whole.
//! let sums = aggregate(&reader, &Query::default(), &[Aggregate::parse("count(*)")?])?;
//! assert_eq!(sums[0].json(), serde_json::json!(20));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

// The facade, at the crate root.
mod api;

// Beside the facade: Arrow batches, maintenance, progress reports.
#[cfg(feature = "arrow")]
pub mod arrow;
pub mod maintain;
pub mod progress;

// The format's layers, mounted under `raw` (src/raw.rs) and named here for
// the crate's own paths (`crate::read::...`); their folders stay at the top
// of src/ so the layer order reads from the folder list.
pub mod raw;
use raw::{array, error, filters, format, model, options, read, storage, tile, write};

pub use api::{
    AggregateValue, Array, AttributeBuilder, Batch, BatchReader, CellType, CommittedFragment,
    Condition, ConsolidationMode, DimensionBuilder, Error, FragmentInfo, IntoDimRange, OpenOptions,
    ReaderBuilder, Result, SchemaBuilder, Target, WriteBuilder,
};
#[doc(inline)]
pub use error::Location;
#[doc(inline)]
pub use format::Datatype;
#[doc(inline)]
pub use model::{
    ArrayType, Attribute, CellValNum, CurrentDomain, DataOrder, Dimension, DimensionLabel,
    DomainRange, Enumeration, Filter, Layout, MetadataValue, Range, Schema, Value, WebpFormat,
};
#[doc(inline)]
pub use options::ReadOptions;
pub use progress::{NoProgress, Progress};
#[doc(inline)]
pub use read::query_condition::{col, ConditionError, ConditionField, Literal, QueryCondition};
#[doc(inline)]
pub use read::Order;
#[doc(inline)]
pub use write::{CreateOptions, WriteOptions};

/// The book's pages with Rust examples, and the README, as doctests: `cargo
/// test` compiles and runs their `rust` blocks, so they cannot go stale.
#[cfg(doctest)]
mod book {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/rust.md")]
    struct RustGuide;
    #[doc = include_str!("../docs/object-stores.md")]
    struct ObjectStores;
}
