//! `INSERT INTO` and `DELETE FROM` an array: each statement writes one
//! fragment or one delete commit, atomically, as the command line's
//! `import` and `delete` do.
//!
//! - `INSERT INTO t SELECT ...` / `VALUES ...` streams the rows into the
//!   array's writer: a sparse array takes any rows; a dense array takes
//!   rows whose coordinates fill a box (the error names the first cell
//!   missing). Every cell is checked against the schema (types, nulls, the
//!   domain) before the fragment is committed, so a failed insert leaves
//!   the array as it was.
//! - `DELETE FROM t WHERE ...` becomes a delete condition when the
//!   predicate maps to one exactly (the comparisons the pushdown makes
//!   conditions of, on dimensions too); anything else is refused with the
//!   part that does not map.
//!
//! Only arrays on local disks are written (an array named by URL is
//! refused), and the statements run only where the query runs: a Ballista
//! cluster does not carry them.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::{Schema as ArrowSchema, SchemaRef};
use datafusion::common::{DataFusionError, Result as DfResult};
use datafusion::datasource::sink::{DataSink, DataSinkExec};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::dml::InsertOp;
use datafusion::logical_expr::Expr;
use datafusion::physical_plan::empty::EmptyExec;
use datafusion::physical_plan::{DisplayAs, DisplayFormatType, ExecutionPlan};
use futures::StreamExt;

use super::{df_error, TileDbTable};
use tiledb_codec::maintain::{delete_cells, DeleteOptions};
use tiledb_codec::raw::read::aggregate::{aggregate, Aggregate, AggregateValue};
use tiledb_codec::raw::read::{Query, QueryCondition};
use tiledb_codec::raw::write::{ImportOptions, WriteOptions};

/// The local folder of a table's array, or why it cannot be written.
fn local_array(table: &TileDbTable) -> DfResult<PathBuf> {
    #[cfg(feature = "ballista")]
    if table.distributed {
        return Err(DataFusionError::Plan(format!(
            "{}: INSERT and DELETE run where the query is planned, not on a Ballista cluster",
            table.location()
        )));
    }
    if table.location().contains("://") {
        return Err(DataFusionError::Plan(format!(
            "{}: only arrays on a local disk are written by SQL (INSERT, DELETE)",
            table.location()
        )));
    }
    Ok(table.array().path().to_path_buf())
}

impl TileDbTable {
    /// The plan of `INSERT INTO` this table: the rows of `input`, as one
    /// fragment.
    pub(super) fn insert_plan(
        &self,
        input: Arc<dyn ExecutionPlan>,
        op: InsertOp,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        if op != InsertOp::Append {
            return Err(DataFusionError::Plan(format!(
                "{}: {op} is not supported on arrays: INSERT INTO appends a fragment",
                self.location()
            )));
        }
        let sink = InsertSink {
            table: self.clone(),
            path: local_array(self)?,
            schema: self.schema.clone(),
            key: tiledb_codec::raw::array_reader(&self.array())
                .options()
                .encryption_key()
                .copied(),
        };
        Ok(Arc::new(DataSinkExec::new(input, Arc::new(sink), None)))
    }

    /// The plan of `DELETE FROM` this table where every filter holds.
    pub(super) fn delete_plan(&self, filters: &[Expr]) -> DfResult<Arc<dyn ExecutionPlan>> {
        let path = local_array(self)?;
        if filters.is_empty() {
            return Err(DataFusionError::Plan(format!(
                "{}: DELETE needs a WHERE clause (a TileDB delete is a condition)",
                self.location()
            )));
        }
        // A delete keeps the cells where the negated condition holds, and
        // a null holds no comparison: a condition on a nullable attribute
        // deletes its null cells too, which SQL's DELETE does not (a null
        // comparison is unknown), and a delete condition cannot test for
        // null to keep them.
        for f in filters {
            for c in f.column_refs() {
                let nullable = self.schema.field_with_name(&c.name).ok();
                if nullable.is_some_and(|f| f.is_nullable()) {
                    return Err(DataFusionError::Plan(format!(
                        "{}: the predicate `{f}` tests the nullable attribute {:?}: as a \
                         TileDB delete condition it would delete the attribute's null cells \
                         too (SQL's DELETE keeps them), and a delete condition cannot test \
                         for null to keep them; nothing was deleted",
                        self.location(),
                        c.name
                    )));
                }
            }
        }
        let state = self.state();
        let mut parts = Vec::with_capacity(filters.len());
        for f in filters {
            match state.columns.exact_condition(f) {
                Some(c) => parts.push(c),
                None => {
                    if let Some(why) = enumerated_refusal(&self.array(), f) {
                        return Err(DataFusionError::Plan(format!(
                            "{}: the predicate `{f}` does not map to a TileDB delete \
                             condition: {why}; nothing was deleted",
                            self.location()
                        )));
                    }
                    return Err(DataFusionError::Plan(format!(
                        "{}: the predicate `{f}` does not map to a TileDB delete condition \
                         exactly (comparisons, IN, IS NULL, AND, OR and NOT of integer and \
                         string fields with literals do)",
                        self.location()
                    )));
                }
            }
        }
        let condition = parts
            .into_iter()
            .reduce(QueryCondition::and)
            .expect("at least one filter");
        let sink = DeleteSink {
            table: self.clone(),
            path,
            condition,
            key: tiledb_codec::raw::array_reader(&self.array())
                .options()
                .encryption_key()
                .copied(),
            schema: Arc::new(ArrowSchema::empty()),
        };
        let nothing = Arc::new(EmptyExec::new(sink.schema.clone()));
        Ok(Arc::new(DataSinkExec::new(nothing, Arc::new(sink), None)))
    }
}

/// Why a predicate on an enumerated attribute is no delete condition: the
/// attribute, its enumeration and what a condition on it can be (`None`:
/// the predicate tests no enumerated attribute).
fn enumerated_refusal(array: &tiledb_codec::Array, f: &Expr) -> Option<String> {
    let schema = array.schema();
    let (attr, name) = f.column_refs().into_iter().find_map(|c| {
        let a = schema.attribute(&c.name)?;
        Some((a.name.clone(), a.enumeration.clone()?))
    })?;
    let labels = match schema.enumeration(&name) {
        Some(e) if e.cell_val_num == tiledb_codec::raw::model::CellValNum::Var => {
            format!("{} (var-sized)", e.datatype.name())
        }
        Some(e) => e.datatype.name().to_string(),
        None => "unknown".to_string(),
    };
    Some(format!(
        "the attribute {attr:?} has the enumeration {name:?}, whose labels are {labels}; a \
         delete condition compares its labels with =, != or IN, against string literals \
         (string labels) or integers of the labels' type (integer labels)"
    ))
}

/// Writes the rows it is given as one fragment of the array at `path`.
struct InsertSink {
    /// Opened again once the fragment is committed.
    table: TileDbTable,
    path: PathBuf,
    schema: SchemaRef,
    key: Option<[u8; 32]>,
}

impl fmt::Debug for InsertSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key.
        f.debug_struct("InsertSink")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl DisplayAs for InsertSink {
    fn fmt_as(&self, _: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TileDbInsert: array={}", self.path.display())
    }
}

#[async_trait]
impl DataSink for InsertSink {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    async fn write_all(
        &self,
        data: SendableRecordBatchStream,
        _context: &Arc<TaskContext>,
    ) -> DfResult<u64> {
        let (path, key, table) = (self.path.clone(), self.key, self.table.clone());
        let runtime = tokio::runtime::Handle::current();
        let summary = tokio::task::spawn_blocking(move || {
            // The writer pulls the rows as it goes: memory stays bounded by
            // the writer's batches, not by the insert's size.
            let mut data = data;
            let mut failed = None;
            let batches = std::iter::from_fn(|| match runtime.block_on(data.next())? {
                Ok(b) => Some(Ok(b)),
                Err(e) => {
                    let text = e.to_string();
                    failed = Some(e);
                    Some(Err(tiledb_codec::raw::arrow::Error::Arrow(
                        datafusion::arrow::error::ArrowError::ExternalError(text.into()),
                    )))
                }
            });
            let mut opts = ImportOptions::default();
            opts.write = WriteOptions::default().with_encryption_key(key);
            let done = tiledb_codec::raw::arrow::import_batches(&path, None, batches, &opts);
            let summary = match failed {
                Some(e) => Err(e),
                None => done.map_err(df_error),
            }?;
            table.refresh()?;
            Ok::<_, DataFusionError>(summary)
        })
        .await
        .map_err(df_error)??;
        Ok(summary.cells)
    }
}

/// Writes one delete commit of `condition` into the array at `path`; the
/// count is of the cells it deletes from what the array reads now.
struct DeleteSink {
    /// Opened again once the delete is committed.
    table: TileDbTable,
    path: PathBuf,
    condition: QueryCondition,
    key: Option<[u8; 32]>,
    schema: SchemaRef,
}

impl fmt::Debug for DeleteSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeleteSink")
            .field("path", &self.path)
            .field("condition", &self.condition.text())
            .finish_non_exhaustive()
    }
}

impl DisplayAs for DeleteSink {
    fn fmt_as(&self, _: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TileDbDelete: array={}, condition=\"{}\"",
            self.path.display(),
            self.condition.text()
        )
    }
}

#[async_trait]
impl DataSink for DeleteSink {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    async fn write_all(
        &self,
        _data: SendableRecordBatchStream,
        _context: &Arc<TaskContext>,
    ) -> DfResult<u64> {
        let (path, condition, key) = (self.path.clone(), self.condition.clone(), self.key);
        let table = self.table.clone();
        tokio::task::spawn_blocking(move || -> DfResult<u64> {
            let read = tiledb_codec::ReadOptions::default().with_encryption_key(key);
            let reader =
                tiledb_codec::raw::read::ArrayReader::open(&path, &read).map_err(df_error)?;
            // Counted by the aggregate path: from tile metadata where the
            // condition covers tiles whole, without reading their cells.
            let q = Query::default().with_condition(condition.clone());
            let count = Aggregate::parse("count(*)").map_err(df_error)?;
            let gone = match aggregate(&reader, &q, &[count]).map_err(df_error)?.first() {
                Some(AggregateValue::Uint(n)) => *n,
                other => {
                    return Err(DataFusionError::Internal(format!(
                        "count(*) of a delete gave {other:?}"
                    )))
                }
            };
            let mut opts = DeleteOptions::default();
            opts.encryption_key = key;
            delete_cells(&path, &condition, &opts).map_err(df_error)?;
            table.refresh()?;
            Ok(gone)
        })
        .await
        .map_err(df_error)?
    }
}
