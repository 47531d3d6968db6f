//! SQL over TileDB arrays: a DataFusion [`TableProvider`]
//! for a TileDB array, and [`register_tables`] to name arrays by path or
//! URL in a query's `FROM` clause.
//!
//! [`TileDbTable`] gives DataFusion:
//! - the Arrow schema of the array (dimensions, then attributes; see
//!   [`tiledb_codec::arrow`] for the types);
//! - projection: only the attributes a query uses are read, and the
//!   dimensions only when it uses one;
//! - filters: comparisons of a dimension with literals become typed ranges
//!   (Exact; Inexact on floating-point dimensions and for `<` on strings),
//!   comparisons of attributes of sparse arrays become a query condition
//!   (Exact where the engine's meaning is SQL's; the rules are in
//!   `pushdown.rs`), evaluated inside the read with tile pruning by
//!   min/max; the rest DataFusion evaluates;
//! - limit: a partition stops reading once it has enough rows;
//! - statistics: the row count (exact for dense arrays and for a single
//!   sparse fragment that keeps duplicates and has no deletes, else an
//!   upper bound) and each dimension's
//!   extent, from the fragments' metadata;
//! - partitions: the cells' extent on the first (integer) dimension is cut
//!   into `target_partitions` slices read in parallel, each its own range,
//!   so every cell belongs to one partition whatever the fragments overlap.
//!
//! `EXPLAIN` shows what was pushed: `TileDbScan: array=…, ranges=[…],
//! condition="…", partitions=N`.
//!
//! ```
//! use std::sync::Arc;
//! use datafusion::prelude::SessionContext;
//! use tiledb_codec::Array;
//! use tiledb_codec_sql::TileDbTable;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let ctx = SessionContext::new();
//! let array = Arc::new(Array::open("tests/fixtures/v22/sparse_int_2d")?);
//! ctx.register_table("t", Arc::new(TileDbTable::new(array)?))?;
//! let batches = ctx.sql("SELECT count(*) FROM t WHERE a > 5").await?.collect().await?;
//! assert_eq!(batches[0].num_rows(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```

mod answer;
#[cfg(feature = "ballista")]
pub mod ballista;
mod dml;
mod factory;
mod prune;
mod pushdown;
mod scan;
mod stats;
mod writes;

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::Session;
use datafusion::common::{DataFusionError, Statistics};
use datafusion::datasource::{TableProvider, TableType};
use datafusion::error::Result as DfResult;
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionContext;

pub use answer::{answer_from_metadata, AnsweredPlanner, MetadataAggregates};
pub use factory::{
    parse_script, parse_session_script, run_script, OpenArray, TileDbTableFactory, FILE_TYPE,
};
use pushdown::{Col, ColKind, Columns, Pushed};
pub use scan::TileDbScan;
use tiledb_codec::raw::model::{ArrayType, CellValNum};
use tiledb_codec::raw::read::{Bound, DimRange, Query, QueryCondition};
use tiledb_codec::Array;
pub use writes::WritePolicy;

/// A TileDB array as a DataFusion table (see the [module](self) docs).
/// Clones share the array: an `INSERT` or `DELETE` through one is seen by
/// every statement after it.
#[derive(Clone)]
pub struct TileDbTable {
    /// What the array was opened from (a path or URL), as given.
    location: String,
    /// Planned by a Ballista scheduler: scans carry their partitions (see
    /// `TileDbScan::carrying_partitions`).
    #[cfg_attr(not(feature = "ballista"), allow(dead_code))]
    distributed: bool,
    schema: SchemaRef,
    /// The array as last opened, with what planning needs of it; replaced
    /// when a statement writes into it.
    state: Arc<std::sync::RwLock<Arc<TableState>>>,
}

/// What planning reads of an opened array.
struct TableState {
    array: Arc<Array>,
    columns: Columns,
    stats: Statistics,
    /// What each fragment's metadata says (partition statistics, pruning).
    facts: Arc<stats::Facts>,
}

impl fmt::Debug for TileDbTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileDbTable")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

/// An error of ours as DataFusion's.
pub(crate) fn df_error(e: impl std::error::Error + Send + Sync + 'static) -> DataFusionError {
    DataFusionError::External(Box::new(e))
}

impl TileDbTable {
    /// The table of an open array: its schema, and the extent of its cells
    /// from the fragments' non-empty domains.
    pub fn new(array: Arc<Array>) -> DfResult<TileDbTable> {
        let schema = tiledb_codec::raw::arrow::arrow_schema(
            tiledb_codec::raw::array_reader(&array),
            &Query::default(),
        )
        .map_err(df_error)?;
        let location = array.path().display().to_string();
        let state = table_state(array, &schema)?;
        Ok(TileDbTable {
            location,
            distributed: false,
            schema,
            state: Arc::new(std::sync::RwLock::new(Arc::new(state))),
        })
    }

    /// The array as this table last opened it.
    pub fn array(&self) -> Arc<Array> {
        self.state().array.clone()
    }

    fn state(&self) -> Arc<TableState> {
        // A poisoned lock still holds a whole state: it is only ever
        // replaced, never changed in place.
        match self.state.read() {
            Ok(s) => s.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Opens the array again (at the same time range, if one was given),
    /// for the statements after one that wrote into it.
    pub(crate) fn refresh(&self) -> DfResult<()> {
        let array = self.array().reopen().map_err(df_error)?;
        let fresh = Arc::new(table_state(Arc::new(array), &self.schema)?);
        match self.state.write() {
            Ok(mut s) => *s = fresh,
            Err(p) => *p.into_inner() = fresh,
        }
        Ok(())
    }
}

/// Opens what planning needs of `array`: its columns with the extent of
/// their cells, and the statistics.
fn table_state(array: Arc<Array>, schema: &SchemaRef) -> DfResult<TableState> {
    let model = array.schema();
    let spans = spans(&array).map_err(df_error)?;
    let mut cols = Vec::new();
    for (d, span) in model.dimensions.iter().zip(&spans) {
        cols.push(Col {
            name: d.name.clone(),
            datatype: d.datatype,
            arrow: arrow_type(schema, &d.name)?,
            kind: ColKind::Dim { span: span.clone() },
        });
    }
    for a in &model.attributes {
        let single = match a.cell_val_num {
            CellValNum::Fixed(n) => n.get() == 1,
            CellValNum::Var => tiledb_codec::raw::model::value::is_text(a.datatype),
        };
        cols.push(Col {
            name: a.name.clone(),
            datatype: a.datatype,
            arrow: arrow_type(schema, &a.name)?,
            kind: ColKind::Attr {
                single,
                enumerated: a.enumeration.is_some(),
            },
        });
    }
    let dense = model.array_type == ArrayType::Dense;
    let columns = Columns { cols, dense };
    let facts = stats::Facts::of(&array, &columns);
    let stats = stats::statistics(schema, &columns, &spans, &facts);
    Ok(TableState {
        array,
        columns,
        stats,
        facts: Arc::new(facts),
    })
}

impl TileDbTable {
    /// Names the array by the path or URL it was opened from (by default
    /// its path). The name is shown by `EXPLAIN` and, on Ballista, is what
    /// the scheduler and the executors open the array from.
    pub fn with_location(mut self, location: impl Into<String>) -> TileDbTable {
        self.location = location.into();
        self
    }

    /// The path or URL the array is named by (see [`Self::with_location`]).
    pub fn location(&self) -> &str {
        &self.location
    }
}

impl TileDbTable {
    /// The fragments and tiles `filters` rule out, by a
    /// [`PruningPredicate`](datafusion::physical_optimizer::pruning::PruningPredicate)
    /// over their metadata (`None`: nothing to prune by).
    fn pruning(
        &self,
        state: &dyn Session,
        table: &TableState,
        filters: &[Expr],
    ) -> Option<prune::Pruned> {
        use datafusion::physical_optimizer::pruning::PruningPredicateBuilder;
        if table.columns.dense {
            return None;
        }
        let expr = datafusion::logical_expr::utils::conjunction(filters.iter().cloned())?;
        let df_schema =
            datafusion::common::DFSchema::try_from(self.schema.as_ref().clone()).ok()?;
        let physical = state.create_physical_expr(expr, &df_schema).ok()?;
        let predicate = PruningPredicateBuilder::new()
            .with_file_schema(self.schema.clone())
            .try_build(physical)
            .ok()?;
        if predicate.always_true() {
            return None;
        }
        let used: std::collections::HashSet<String> = filters
            .iter()
            .flat_map(|f| f.column_refs())
            .map(|c| c.name.clone())
            .collect();
        prune::prune(
            &table.array,
            &table.columns,
            &table.facts,
            &predicate,
            &used,
        )
    }
}

fn arrow_type(schema: &SchemaRef, name: &str) -> DfResult<datafusion::arrow::datatypes::DataType> {
    Ok(schema.field_with_name(name)?.data_type().clone())
}

/// Per dimension, the extent of the array's cells: the union of the
/// fragments' non-empty domains (`None`: no fragment holds cells).
fn spans(array: &Array) -> tiledb_codec::raw::error::Result<Vec<Option<(Bound, Bound)>>> {
    let nd = array.schema().dimensions.len();
    let mut out: Vec<Option<(Bound, Bound)>> = vec![None; nd];
    for f in &tiledb_codec::raw::array_reader(array).fragments {
        let Some(ned) = f.non_empty_domain()? else {
            continue;
        };
        for (d, r) in ned.into_iter().enumerate().take(nd) {
            let DimRange { lo, hi, .. } = DimRange::from(r);
            out[d] = Some(match out[d].take() {
                None => (lo, hi),
                Some((a, b)) => (if lo < a { lo } else { a }, if hi > b { hi } else { b }),
            });
        }
    }
    Ok(out)
}

#[async_trait]
impl TableProvider for TileDbTable {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> DfResult<Vec<TableProviderFilterPushDown>> {
        Ok(filters
            .iter()
            .map(|f| self.state().columns.classify(f).kind())
            .collect())
    }

    fn statistics(&self) -> Option<Statistics> {
        Some(self.state().stats.clone())
    }

    async fn insert_into(
        &self,
        _state: &dyn Session,
        input: Arc<dyn ExecutionPlan>,
        op: datafusion::logical_expr::dml::InsertOp,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        self.insert_plan(input, op)
    }

    async fn delete_from(
        &self,
        _state: &dyn Session,
        filters: Vec<Expr>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        self.delete_plan(&filters)
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let table = self.state();
        let mut ranges: Vec<(String, Vec<DimRange>)> = Vec::new();
        let mut conditions = Vec::new();
        for f in filters {
            match table.columns.classify(f) {
                Pushed::Ranges { entries, .. } => {
                    // One entry per dimension: the intersection of all.
                    for (dim, rs) in entries {
                        match ranges.iter_mut().find(|(d, _)| *d == dim) {
                            Some((_, have)) => *have = pushdown::intersect(have, &rs),
                            None => ranges.push((dim, rs)),
                        }
                    }
                }
                Pushed::Condition { cond, .. } => conditions.push(cond),
                Pushed::No => {}
            }
        }
        let condition = conditions.into_iter().reduce(QueryCondition::and);
        let projection: Vec<usize> = match projection {
            Some(p) => p.clone(),
            None => (0..self.schema.fields().len()).collect(),
        };
        let target = state.config().target_partitions().max(1);
        let pruned = self.pruning(state, &table, filters);
        let scan = TileDbScan::new(
            scan::ScanTable {
                array: table.array.clone(),
                location: self.location.clone(),
                schema: self.schema.clone(),
                columns: &table.columns,
                stats: &table.stats,
                facts: table.facts.clone(),
            },
            scan::Pushed {
                projection: &projection,
                ranges,
                condition,
                limit,
                target,
                pruned,
            },
        )?;
        #[cfg(feature = "ballista")]
        if self.distributed {
            return Ok(Arc::new(scan.carrying_partitions()?));
        }
        Ok(Arc::new(scan))
    }
}

/// Registers, in `ctx`, a [`TileDbTable`] for every table a query names
/// that `ctx` does not know yet: `open` turns the name (`FROM
/// "path/or/url"`, quoted as an identifier or a string) into an array.
/// Returns the names registered.
///
/// ```
/// use std::sync::Arc;
/// use datafusion::prelude::SessionContext;
/// use tiledb_codec::Array;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let ctx = SessionContext::new();
/// let query = r#"SELECT count(*) AS n FROM "tests/fixtures/v22/dense_int_1d""#;
/// tiledb_codec_sql::register_tables(&ctx, query, |name| {
///     Ok(Arc::new(Array::open(name)?))
/// })?;
/// let batches = ctx.sql(query).await?.collect().await?;
/// assert_eq!(batches[0].num_rows(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub fn register_tables(
    ctx: &SessionContext,
    query: &str,
    open: impl Fn(&str) -> Result<Arc<Array>, Box<dyn std::error::Error + Send + Sync>>,
) -> DfResult<Vec<String>> {
    let statement = {
        let state = ctx.state_ref();
        let state = state.read();
        let dialect = state.config().options().sql_parser.dialect;
        state.sql_to_statement(query, &dialect)?
    };
    register_statement_tables(ctx, &statement, open)
}

/// [`register_tables`] of one parsed statement (of a script: see
/// `datafusion::sql::parser::DFParser`). A `CREATE EXTERNAL TABLE` names
/// its table itself: nothing is registered for it.
pub fn register_statement_tables(
    ctx: &SessionContext,
    statement: &datafusion::sql::parser::Statement,
    open: impl Fn(&str) -> Result<Arc<Array>, Box<dyn std::error::Error + Send + Sync>>,
) -> DfResult<Vec<String>> {
    if matches!(
        statement,
        datafusion::sql::parser::Statement::CreateExternalTable(_)
    ) {
        return Ok(Vec::new());
    }
    // The table a CREATE TABLE makes is no array to open (the statement
    // itself is refused when it is planned: see `WritePolicy`).
    let created = match statement {
        datafusion::sql::parser::Statement::Statement(s) => match s.as_ref() {
            datafusion::sql::sqlparser::ast::Statement::CreateTable(c) => Some(c.name.to_string()),
            _ => None,
        },
        _ => None,
    };
    // The session's state read in place (`ctx.state()` would copy it, its
    // every function registry, for each statement).
    let refs: Vec<(datafusion::common::TableReference, String)> = {
        let state = ctx.state_ref();
        let state = state.read();
        state
            .resolve_table_references(statement)?
            .into_iter()
            // Paths hold dots and slashes: the whole reference is the name.
            .map(|r| {
                let name = r.to_string();
                (r, name)
            })
            .filter(|(_, name)| created.as_deref() != Some(name.as_str()))
            // Table functions (`range(0, 10)`).
            .filter(|(_, name)| !state.table_functions().contains_key(name))
            .collect()
    };
    let mut out = Vec::new();
    for (r, name) in refs {
        // Tables the session knows.
        if ctx.table_exist(r.clone())? {
            continue;
        }
        let table = opened_table(ctx, &name, &open)?;
        ctx.register_table(r, table)?;
        out.push(name);
    }
    Ok(out)
}

/// The arrays a session opened for its statements, by the name the
/// statement gave, each as its table (schema and statistics made): a
/// statement that names one again gets the same table while the array is
/// current ([`Array::is_current`]: its folders list the same names), and
/// a table of the array opened anew once it is not. The crate's sessions
/// ([`TileDbTableFactory::session`]) hold one in their configuration;
/// the [`OpenedTables::CAPACITY`] names used last are kept.
#[derive(Debug, Default)]
pub struct OpenedTables {
    /// Least recently used first.
    tables: std::sync::Mutex<Vec<(String, Arc<TileDbTable>)>>,
}

impl OpenedTables {
    /// How many arrays a session keeps open.
    pub const CAPACITY: usize = 16;

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(String, Arc<TileDbTable>)>> {
        // A poisoned list still holds whole entries.
        self.tables.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The table kept for `name`, taken out of the list.
    fn take(&self, name: &str) -> Option<Arc<TileDbTable>> {
        let mut tables = self.lock();
        let i = tables.iter().position(|(n, _)| n == name)?;
        Some(tables.remove(i).1)
    }

    /// Keeps `table` for `name`, as the one used last.
    fn keep(&self, name: &str, table: Arc<TileDbTable>) {
        let mut tables = self.lock();
        tables.retain(|(n, _)| n != name);
        if tables.len() >= Self::CAPACITY {
            tables.remove(0);
        }
        tables.push((name.to_string(), table));
    }
}

/// What opens an array by the name a statement gives it.
pub(crate) type OpenByName<'a> =
    dyn Fn(&str) -> Result<Arc<Array>, Box<dyn std::error::Error + Send + Sync>> + 'a;

/// The table of the array `name`: the session's kept one while its array
/// is current, else the array `open` opens (then kept by the session, when
/// it keeps tables).
pub(crate) fn opened_table(
    ctx: &SessionContext,
    name: &str,
    open: &OpenByName<'_>,
) -> DfResult<Arc<TileDbTable>> {
    let kept = ctx
        .state_ref()
        .read()
        .config()
        .get_extension::<OpenedTables>();
    if let Some(table) = kept.as_ref().and_then(|k| k.take(name)) {
        // A listing that fails opens anew, which says why.
        if table.array().is_current().unwrap_or(false) {
            if let Some(k) = &kept {
                k.keep(name, table.clone());
            }
            return Ok(table);
        }
    }
    let array = open(name).map_err(|e| cannot_open(name, e))?;
    let table = Arc::new(TileDbTable::new(array)?.with_location(name.to_string()));
    if let Some(k) = &kept {
        k.keep(name, table.clone());
    }
    Ok(table)
}

/// The error of a table name that does not open as an array.
fn cannot_open(name: &str, e: impl fmt::Display) -> DataFusionError {
    DataFusionError::Plan(format!("table {name:?}: cannot open it as an array: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::logical_expr::{col, lit};
    use tiledb_codec::raw::read::query_condition::{attr, dim, PARSES};

    /// Pushed filters become conditions without text: no parse on the way
    /// from the expressions to each partition's query (planning and
    /// `query(p)` run on this thread), and the condition is the typed one.
    #[test]
    fn pushed_conditions_never_pass_through_text() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/v22/nullable_var_sparse"
        );
        let table = TileDbTable::new(Arc::new(Array::open(path).unwrap())).unwrap();
        // A literal with both quote kinds, on an attribute and a dimension.
        let quoted = "it's \"q\"";
        let filters = [
            col("s").not_eq(lit(quoted)).or(col("d").lt(lit(3i64))),
            col("n").is_not_null(),
        ];
        let parses = || PARSES.with(|n| n.get());
        let before = parses();
        let kinds = table
            .supports_filters_pushdown(&filters.iter().collect::<Vec<_>>())
            .unwrap();
        assert!(kinds
            .iter()
            .all(|k| *k == TableProviderFilterPushDown::Exact));
        let ctx = SessionContext::new_with_config(
            datafusion::prelude::SessionConfig::new().with_target_partitions(3),
        );
        let state = ctx.state();
        let plan = futures::executor::block_on(table.scan(&state, None, &filters, None)).unwrap();
        let scan = plan.downcast_ref::<TileDbScan>().unwrap();
        let want = attr("s")
            .ne(quoted)
            .or(dim("d").lt(3))
            .and(attr("n").is_not_null());
        let n = plan.properties().partitioning.partition_count();
        assert!(n > 1, "{n} partitions");
        for p in 0..n {
            assert_eq!(scan.query(p).unwrap().condition, Some(want.clone()), "{p}");
        }
        assert_eq!(parses(), before, "a pushed condition was parsed from text");
        // Its text (shown by EXPLAIN, sent to Ballista executors) parses
        // back to it.
        let text = scan.query(0).unwrap().condition.unwrap().text().to_string();
        assert_eq!(
            text,
            r#"(attr("s") != "it's \"q\"" or dim("d") < 3) and attr("n") is not None"#
        );
        assert_eq!(QueryCondition::parse(&text).unwrap(), want);
    }
}
