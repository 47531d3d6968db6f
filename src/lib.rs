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
//! # Ok::<(), tiledb_codec::ArrayError>(())
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
//! # Ok::<(), tiledb_codec::ArrayError>(())
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
//! # Ok::<(), tiledb_codec::ArrayError>(())
//! ```
//!
//! List fragments with their typed non-empty domains:
//!
//! ```
//! use tiledb_codec::model::DomainRange;
//! use tiledb_codec::Array;
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
//! # Ok::<(), tiledb_codec::ArrayError>(())
//! ```
//!
//! Underneath, the byte layouts live in `spec/` as declarative tables;
//! `build.rs` turns them into the version-aware codecs of [`format`](mod@format). On top
//! of them: [`storage`] maps files, [`tile`] reads (generic) tiles in place,
//! [`filters`] reverses filter pipelines, [`array`](mod@array) opens arrays, [`read`]
//! and [`write`](mod@write) read and write cells, [`model`] is the typed model of a
//! schema, and [`inspect`] describes what a path holds. The lower-level
//! reader takes a [`read::Query`] and gives [`read::Cells`]:
//!
//! ```
//! use tiledb_codec::ReadOptions;
//! use tiledb_codec::format::Datatype;
//! use tiledb_codec::read::{ArrayReader, DimRange, Query, QueryCondition};
//! use tiledb_codec::read::aggregate::{aggregate, Aggregate};
//!
//! let reader = ArrayReader::open("tests/fixtures/v22/dense_int_1d".as_ref(), &ReadOptions::default())?;
//! let cells = reader.read(&Query::default())?;
//! assert_eq!(cells.len, 20);
//! println!("{}", cells.row(0)); // {"a":0,"d":1}
//!
//! // A typed range and a condition: only the tiles they touch are decoded.
//! let q = Query {
//!     condition: Some(QueryCondition::parse("a >= 30")?),
//!     ..Query::default()
//! }
//! .range("d", DimRange::parse(Datatype::Int32, "3:6").map_err(|e| e.to_string()).unwrap());
//! let some = reader.read(&q)?;
//! assert_eq!(some.len, 4); // dense: cells failing the condition hold fill values
//!
//! // The same in batches of at most 2 cells.
//! let batches = reader.batches(&Query { batch_cells: Some(2), ..q.clone() })?;
//! assert_eq!(batches.map(|b| b.map(|b| b.len)).sum::<Result<usize, _>>()?, 4);
//!
//! // Aggregates, answered from tile metadata where tiles are covered whole.
//! let sums = aggregate(&reader, &Query::default(), &[Aggregate::parse("count(*)")?])?;
//! assert_eq!(sums[0].json(), serde_json::json!(20));
//! # Ok::<(), tiledb_codec::Error>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod api;
pub mod array;
#[cfg(feature = "arrow")]
pub mod arrow;
pub mod error;
pub mod filters;
pub mod format;
pub mod inspect;
pub mod maintain;
// Being rewritten (issue 11, typed model): documented there.
pub mod model;
mod options;
pub mod progress;
pub mod read;
#[cfg(feature = "datafusion")]
pub mod sql;
pub mod storage;
pub mod summary;
pub mod svg;
pub mod tile;
pub mod value;
pub mod verify;
pub mod write;

pub use api::{
    Array, ArrayError, AttributeBuilder, Batch, BatchReader, CellType, Condition,
    ConsolidationMode, DimensionBuilder, FragmentInfo, IntoDimRange, ReaderBuilder, SchemaBuilder,
    WriteBuilder,
};
pub use error::{Error, Result};
pub use format::Datatype;
pub use options::ReadOptions;
pub use progress::{NoProgress, Progress};
pub use read::query_condition::col;
pub use read::Order;
