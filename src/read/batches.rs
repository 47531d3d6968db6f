//! The batches of a read, one slab of cells at a time.

use super::array_reader::ArrayReader;
use super::column::Cells;
use super::dense;
use super::into::Sink;
use super::plan_dense::*;
use super::query::Query;
use crate::error::Result;

/// The batches of a read ([`ArrayReader::batches`]).
pub struct Batches<'a> {
    pub(crate) reader: &'a ArrayReader,
    pub(super) inner: BatchesInner<'a>,
}

impl Batches<'_> {
    /// The next batch written into the caller's buffers, one field per
    /// sink (as [`ArrayReader::read_into`] takes them), and how many cells
    /// each now holds at its start; `None` after the last batch. Fields of
    /// the batch without a sink are left out. A dense batch without a
    /// condition decodes its fixed-size attributes straight into their
    /// buffers: a loop that reuses them touches no fresh memory. A sink
    /// too small for the batch, a var-sized field, or a nullable attribute
    /// without a validity buffer is an error, before anything is written.
    pub fn next_into(&mut self, sinks: &mut [Sink]) -> Option<Result<usize>> {
        if let BatchesInner::Dense {
            reader,
            plan,
            sels,
            query,
        } = &mut self.inner
        {
            let sel = sels.next()?;
            if let Err(e) = reader.check_distinct(sinks) {
                return Some(Err(e));
            }
            if plan.condition.is_none() {
                let first: &ArrayReader = reader;
                return Some(reader.retrying(|r| {
                    if std::ptr::eq(r, first) {
                        r.fill_dense(plan, &sel, sinks)
                    } else {
                        r.fill_dense(&r.dense_plan(query)?, &sel, sinks)
                    }
                }));
            }
            let cells = dense_batch(reader, plan, &sel, query);
            return Some(cells.and_then(|c| reader.copy_into(&c, sinks.iter_mut().collect())));
        }
        let reader = self.reader;
        let cells = self.next()?;
        Some(cells.and_then(|c| {
            reader.check_distinct(sinks)?;
            reader.copy_into(&c, sinks.iter_mut().collect())
        }))
    }
}

/// The cells of `sel` of a dense read planned as `plan` by `reader`; when
/// a file of the array is gone (a vacuum since the reader was opened), of
/// the array opened afresh, planned again ([`ArrayReader::retrying`]).
fn dense_batch(
    reader: &ArrayReader,
    plan: &DensePlan,
    sel: &dense::Selection,
    query: &Query,
) -> Result<Cells> {
    reader.retrying(|r| {
        if std::ptr::eq(r, reader) {
            r.dense_batch(plan, sel, query)
        } else {
            r.dense_batch(&r.dense_plan(query)?, sel, query)
        }
    })
}

pub(super) enum BatchesInner<'a> {
    /// A dense read, a slab of rows at a time.
    Dense {
        reader: &'a ArrayReader,
        plan: Box<DensePlan<'a>>,
        sels: dense::DenseBatches,
        query: Box<Query>,
    },
    /// A result read whole, handed out in slices.
    Buffered {
        cells: Cells,
        at: usize,
        size: usize,
    },
    /// A sparse read a slab at a time, each handed out in slices.
    Slabs {
        reader: &'a ArrayReader,
        slabs: std::vec::IntoIter<Query>,
        size: usize,
        current: Option<(Cells, usize)>,
    },
}

impl Iterator for Batches<'_> {
    type Item = Result<Cells>;

    fn next(&mut self) -> Option<Result<Cells>> {
        match &mut self.inner {
            BatchesInner::Dense {
                reader,
                plan,
                sels,
                query,
            } => {
                let sel = sels.next()?;
                Some(dense_batch(reader, plan, &sel, query))
            }
            BatchesInner::Slabs {
                reader,
                slabs,
                size,
                current,
            } => loop {
                if let Some((cells, at)) = current {
                    if *at < cells.len {
                        let b = cells.slice(*at, *size);
                        *at += b.len;
                        return Some(Ok(b));
                    }
                }
                let slab = slabs.next()?;
                match reader.read(&slab) {
                    Ok(c) => *current = Some((c, 0)),
                    Err(e) => return Some(Err(e)),
                }
            },
            BatchesInner::Buffered { cells, at, size } => {
                if *at >= cells.len {
                    return None;
                }
                let b = cells.slice(*at, *size);
                *at += b.len;
                Some(Ok(b))
            }
        }
    }
}
