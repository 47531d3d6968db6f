//! A pure-Rust, zero-copy codec for the TileDB on-disk format.
//!
//! The byte layouts live in `spec/` as declarative tables; `build.rs` turns
//! them into the version-aware codecs of [`format`]. On top of them:
//! [`storage`] maps files, [`tile`] reads (generic) tiles in place,
//! [`filters`] reverses filter pipelines, [`array`] opens arrays, and
//! [`inspect`] describes what a path holds.
//!
//! ```
//! use tiledb_codec::filters::ReadOptions;
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

pub mod array;
#[cfg(feature = "arrow")]
pub mod arrow;
pub mod error;
pub mod filters;
pub mod format;
pub mod inspect;
pub mod model;
pub mod read;
pub mod storage;
pub mod tile;
pub mod value;
pub mod verify;
pub mod write;

pub use error::{Error, Result};
