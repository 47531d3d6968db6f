//! Aggregates through the facade: `count(*)`, `sum(a)` and the others over
//! the cells a [`ReaderBuilder`] selects, computed as TileDB computes them.

use super::{Error, ReaderBuilder};
use crate::read::aggregate::{aggregate, Aggregate};

#[doc(inline)]
pub use crate::read::aggregate::AggregateValue;

impl ReaderBuilder<'_> {
    /// The aggregates `exprs` over the cells this builder selects (its
    /// ranges and condition; attributes, order and batch size do not
    /// matter), one value each: `count(*)`, `count(a)`, `sum(a)`, `min(a)`,
    /// `max(a)`, `mean(a)`, `null_count(a)`. They are TileDB's: sums widen
    /// to 64 bits, nulls are skipped, and on a dense array `count` counts
    /// every cell of the region whatever the condition says while the
    /// others see only the cells it keeps. Tiles the selection covers
    /// whole are answered from their metadata.
    ///
    /// ```
    /// use tiledb_codec::{col, AggregateValue, Array};
    ///
    /// let array = Array::open("tests/fixtures/v22/dense_int_2d")?;
    /// let all = array.reader().aggregate(&["count(*)"])?;
    /// let big = array.reader().condition(col("a").gt(5)).aggregate(&["count(*)", "min(a)"])?;
    /// assert_eq!(big[0], all[0]); // a dense count ignores the condition
    /// let AggregateValue::Int(min) = big[1] else { panic!("min(a) of INT32 is an integer") };
    /// assert!(min > 5);
    /// # Ok::<(), tiledb_codec::Error>(())
    /// ```
    pub fn aggregate<S: AsRef<str>>(self, exprs: &[S]) -> Result<Vec<AggregateValue>, Error> {
        let aggs = exprs
            .iter()
            .map(|e| Aggregate::parse(e.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        let q = self.query()?;
        Ok(aggregate(&self.array.reader, &q, &aggs)?)
    }
}
