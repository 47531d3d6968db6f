//! `count`, `min` and `max` over a whole array answered from fragment
//! metadata while the query is still a logical plan: an aggregate without
//! `GROUP BY` straight over a [`TileDbTable`] scan (no filter, no limit;
//! under the table's name or an alias) whose every expression the table's
//! exact statistics answer becomes a projection of those values over one
//! empty row. The rules and the
//! physical planning after it then run over that trivial plan, not over
//! a scan and an aggregate that DataFusion's own physical rule
//! (`AggregateStatistics`) would answer from the same statistics at the
//! end. Where one expression is not answered exactly, nothing changes.
//!
//! [`AnsweredPlanner`], the query planner of the crate's sessions, makes
//! such a row of literals its physical plan directly (DataFusion's own
//! plan of it, less the passes of its physical optimizer rules, which
//! have nothing to change there).

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::common::config::ConfigOptions;
use datafusion::common::stats::Precision;
use datafusion::common::tree_node::Transformed;
use datafusion::common::{ColumnStatistics, DFSchema, Result as DfResult, ScalarValue};
use datafusion::execution::context::QueryPlanner;
use datafusion::logical_expr::expr::AggregateFunction;
use datafusion::logical_expr::{Aggregate, EmptyRelation, Expr, LogicalPlan, Projection};
use datafusion::optimizer::{AnalyzerRule, ApplyOrder, OptimizerConfig, OptimizerRule};
use datafusion::physical_expr::expressions::Literal;
use datafusion::physical_plan::placeholder_row::PlaceholderRowExec;
use datafusion::physical_plan::projection::{ProjectionExec, ProjectionExpr};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_planner::{DefaultPhysicalPlanner, PhysicalPlanner};

use super::{TableState, TileDbTable};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::record_batch::RecordBatch;

/// The optimizer rule answering `count`, `min` and `max` over a whole
/// array from fragment metadata while the query is a logical plan: an
/// aggregate without `GROUP BY` straight over a table scan (no filter, no
/// limit) whose every expression the table's exact statistics answer
/// becomes a projection of those values over one empty row. Sessions made by
/// [`TileDbTableFactory`](super::TileDbTableFactory) run it as their last
/// analyzer rule and their first optimizer rule; a session of one's own
/// takes it with `SessionStateBuilder::with_analyzer_rule` and
/// `with_optimizer_rules` (first, so that the rules after it see the small
/// plan), and [`AnsweredPlanner`] with `with_query_planner`.
#[derive(Debug, Default, Clone, Copy)]
pub struct MetadataAggregates;

impl OptimizerRule for MetadataAggregates {
    fn name(&self) -> &str {
        "tiledb_metadata_aggregates"
    }

    fn apply_order(&self) -> Option<ApplyOrder> {
        Some(ApplyOrder::TopDown)
    }

    fn rewrite(
        &self,
        plan: LogicalPlan,
        _config: &dyn OptimizerConfig,
    ) -> DfResult<Transformed<LogicalPlan>> {
        Ok(answer_node(plan))
    }
}

/// The same answer as the last analyzer rule (after type coercion), in
/// the sessions [`TileDbTableFactory`](super::TileDbTableFactory) makes:
/// the optimizer then starts from the answered plan, and stops after one
/// pass that changes nothing (as the optimizer rule, it would make one
/// pass that answers and a second that finds nothing more to change). It
/// stays an optimizer rule too, for aggregates that DataFusion's rules
/// bring straight over a scan.
impl AnalyzerRule for MetadataAggregates {
    fn name(&self) -> &str {
        "tiledb_metadata_aggregates"
    }

    fn analyze(&self, plan: LogicalPlan, _config: &ConfigOptions) -> DfResult<LogicalPlan> {
        plan.transform_down_with_subqueries(|p| Ok(answer_node(p)))
            .map(|t| t.data)
    }
}

/// `plan` answered when it is an aggregate [`answer`] answers.
fn answer_node(plan: LogicalPlan) -> Transformed<LogicalPlan> {
    let answered = match &plan {
        LogicalPlan::Aggregate(agg) => answer(agg),
        _ => None,
    };
    match answered {
        Some(p) => Transformed::yes(p),
        None => Transformed::no(plan),
    }
}

/// The aggregate's one row as a projection of literals, named as the
/// aggregate names its columns; `None` where any is not exactly known.
fn answer(agg: &Aggregate) -> Option<LogicalPlan> {
    if !agg.group_expr.is_empty() {
        return None;
    }
    // The table under its own name, or an alias of it (`FROM t AS x`).
    let input = match agg.input.as_ref() {
        LogicalPlan::SubqueryAlias(a) => a.input.as_ref(),
        p => p,
    };
    let LogicalPlan::TableScan(scan) = input else {
        return None;
    };
    if !scan.filters.is_empty() || scan.fetch.is_some() {
        return None;
    }
    let provider = datafusion::datasource::source_as_provider(&scan.source).ok()?;
    let table = provider.downcast_ref::<TileDbTable>()?;
    let state = table.state();
    let Precision::Exact(rows) = state.stats.num_rows else {
        return None;
    };
    let mut exprs = Vec::with_capacity(agg.aggr_expr.len());
    for (i, e) in agg.aggr_expr.iter().enumerate() {
        let e = match e {
            Expr::Alias(a) => a.expr.as_ref(),
            e => e,
        };
        let Expr::AggregateFunction(AggregateFunction { func, params }) = e else {
            return None;
        };
        if params.distinct || params.filter.is_some() || !params.order_by.is_empty() {
            return None;
        }
        let [arg] = params.args.as_slice() else {
            return None;
        };
        let arg = match arg {
            // count(*) (a count of a non-null literal).
            Expr::Literal(v, _) if !v.is_null() && func.name() == "count" => None,
            Expr::Column(c) => Some(c.name.as_str()),
            _ => return None,
        };
        let v = exact_value(table, &state, rows, func.name(), arg)?;
        let (qualifier, field) = agg.schema.qualified_field(i);
        let v = v.cast_to(field.data_type()).ok()?;
        exprs.push(Expr::Literal(v, None).alias_qualified(qualifier.cloned(), field.name()));
    }
    let one = LogicalPlan::EmptyRelation(EmptyRelation {
        produce_one_row: true,
        schema: Arc::new(DFSchema::empty()),
    });
    Projection::try_new(exprs, Arc::new(one))
        .ok()
        .map(LogicalPlan::Projection)
}

/// The exact value of `func` (`count`, `min` or `max`) over column `arg`
/// of `table` (`count(*)` without one), from its statistics (`rows`
/// being their exact row count); `None` where they do not know it exactly.
fn exact_value(
    table: &TileDbTable,
    state: &TableState,
    rows: usize,
    func: &str,
    arg: Option<&str>,
) -> Option<ScalarValue> {
    let column = |name: &str| -> Option<&ColumnStatistics> {
        let i = table.schema.index_of(name).ok()?;
        state.stats.column_statistics.get(i)
    };
    let exact = |p: &Precision<ScalarValue>| match p {
        Precision::Exact(v) => Some(v.clone()),
        _ => None,
    };
    match (func, arg) {
        ("count", None) => Some(ScalarValue::Int64(Some(i64::try_from(rows).ok()?))),
        ("count", Some(c)) => {
            let Precision::Exact(nulls) = column(c)?.null_count else {
                return None;
            };
            Some(ScalarValue::Int64(Some(
                i64::try_from(rows.checked_sub(nulls)?).ok()?,
            )))
        }
        ("min", Some(c)) => exact(&column(c)?.min_value),
        ("max", Some(c)) => exact(&column(c)?.max_value),
        _ => None,
    }
}

/// Answers a whole statement from fragment metadata before DataFusion
/// plans it, where it is exactly `SELECT` of `count(*)`, `count(c)`,
/// `min(c)` and `max(c)` (each with or without `AS name`) `FROM` one table
/// (with or without an alias): no other clause, and every value known
/// exactly from the table's statistics (the same as [`MetadataAggregates`]
/// answers). The row is the one the crate's sessions give for the same
/// query: the same column names, types and values.
///
/// The table is the session's, when `ctx` has one of that name (a
/// [`TileDbTable`]; any other kind is not answered), else the array
/// `open` opens from the name (as [`register_tables`](super::register_tables)
/// would open it), or the one the session keeps for that name while it is
/// current (see [`OpenedTables`](super::OpenedTables)). `Ok(None)`: the
/// statement is to be planned as usual; an
/// array opened for it is then left registered under its name, as
/// `register_tables` would register it, so that planning does not open it
/// again (an answered statement registers nothing). The row's schema is
/// the statement's as DataFusion names it (a count never null, a min or a
/// max nullable). DataFusion's planning costs more than the answer
/// itself (parsing the query into a plan, its analyzer and optimizer rules
/// and its physical planning, about 0.25 ms on this machine, against an
/// answer read from the footers), so the `sql` command asks here first.
///
/// ```
/// use std::sync::Arc;
/// use datafusion::prelude::SessionConfig;
/// use tiledb_codec_sql::{answer_from_metadata, parse_session_script, TileDbTableFactory};
/// use tiledb_codec::Array;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let ctx = TileDbTableFactory::default().session(SessionConfig::new());
/// let open = |name: &str| -> Result<_, Box<dyn std::error::Error + Send + Sync>> {
///     Ok(Arc::new(Array::open(name)?))
/// };
/// // Three dense fragments that overlap: the count is the cells of their
/// // extent, known exactly; the greatest value is not (a newer fragment
/// // overwrites cells of an older one), so that query is DataFusion's.
/// let array = "tests/fixtures/v22/dense_int_1d";
/// let query = format!(r#"SELECT count(*) AS n FROM "{array}""#);
/// let statement = parse_session_script(&ctx, &query)?.pop_front().unwrap();
/// let row = answer_from_metadata(&ctx, &statement, open).await?.expect("answered");
/// assert_eq!(row.schema().field(0).name(), "n");
/// let query = format!(r#"SELECT count(*) AS n, max(a) FROM "{array}""#);
/// let statement = parse_session_script(&ctx, &query)?.pop_front().unwrap();
/// assert!(answer_from_metadata(&ctx, &statement, open).await?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub async fn answer_from_metadata(
    ctx: &datafusion::prelude::SessionContext,
    statement: &datafusion::sql::parser::Statement,
    open: impl Fn(&str) -> Result<Arc<tiledb_codec::Array>, Box<dyn std::error::Error + Send + Sync>>,
) -> DfResult<Option<RecordBatch>> {
    let shape = {
        let state = ctx.state_ref();
        let state = state.read();
        let normalized = state
            .config()
            .options()
            .sql_parser
            .enable_ident_normalization;
        match Shape::of(statement, normalized) {
            // A table function (`range`) is no array.
            Some(s) if !state.table_functions().contains_key(&s.table) => s,
            _ => return Ok(None),
        }
    };
    let reference = datafusion::common::TableReference::bare(shape.table.clone());
    if ctx.table_exist(reference.clone())? {
        let Ok(provider) = ctx.table_provider(reference).await else {
            return Ok(None);
        };
        return Ok(provider
            .downcast_ref::<TileDbTable>()
            .and_then(|t| answer_table(t, &shape)));
    }
    let table = super::opened_table(ctx, &shape.table, &open)?;
    let row = answer_table(&table, &shape);
    if row.is_none() {
        // Planned as usual next: registered as `register_tables` would,
        // so that the array is not opened a second time.
        ctx.register_table(reference, table)?;
    }
    Ok(row)
}

/// The row `shape` asks of `table`, where its statistics know every value
/// exactly.
fn answer_table(table: &TileDbTable, shape: &Shape) -> Option<RecordBatch> {
    let state = table.state();
    let Precision::Exact(rows) = state.stats.num_rows else {
        return None;
    };
    let mut fields = Vec::with_capacity(shape.items.len());
    let mut columns = Vec::with_capacity(shape.items.len());
    for item in &shape.items {
        // A column the table does not have has no value here: DataFusion's
        // error.
        let arg = item.arg.as_deref();
        let v = exact_value(table, &state, rows, &item.func, arg)?;
        let datatype = match arg {
            None => DataType::Int64,
            Some(_) if item.func == "count" => DataType::Int64,
            Some(c) => table.schema.field_with_name(c).ok()?.data_type().clone(),
        };
        if matches!(datatype, DataType::Dictionary(..)) {
            return None;
        }
        let v = v.cast_to(&datatype).ok()?;
        let name = match (&item.alias, arg) {
            (Some(a), _) => a.clone(),
            (None, None) => format!("{}(*)", item.func),
            (None, Some(c)) => format!("{}({}.{c})", item.func, shape.qualifier),
        };
        if fields.iter().any(|f: &Field| f.name() == &name) {
            // DataFusion refuses two columns of one name.
            return None;
        }
        // As DataFusion's aggregates name their fields: a count is never
        // null, a min or a max may be.
        fields.push(Field::new(name, datatype, item.func != "count"));
        columns.push(v.to_array().ok()?);
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).ok()
}

/// What [`answer_from_metadata`] answers of a statement: the table it names
/// and, per column of its result, the aggregate.
struct Shape {
    /// The table's name, normalized as DataFusion normalizes it.
    table: String,
    /// What qualifies the table's columns in the result's names: its
    /// alias, else its name.
    qualifier: String,
    items: Vec<Item>,
}

/// One `count`, `min` or `max` of a [`Shape`].
struct Item {
    func: String,
    /// The column (`None`: `count(*)`).
    arg: Option<String>,
    alias: Option<String>,
}

impl Shape {
    /// The shape of `statement`, where it is `SELECT` of aggregates
    /// [`answer_from_metadata`] knows `FROM` one table and nothing else:
    /// the statement written again from those parts alone must read as
    /// the statement itself, so no clause is overlooked.
    /// `normalized`: unquoted identifiers are in lower case (the session's
    /// `sql_parser.enable_ident_normalization`).
    fn of(statement: &datafusion::sql::parser::Statement, normalized: bool) -> Option<Shape> {
        use datafusion::sql::sqlparser::ast::{
            self as sql, FunctionArg, FunctionArgExpr, FunctionArguments, SelectItem, SetExpr,
            TableFactor,
        };
        // DataFusion reads an unquoted `@name` as a variable.
        let plain = |id: &sql::Ident| id.quote_style.is_some() || !id.value.starts_with('@');
        let normalize = |id: &sql::Ident| match id.quote_style {
            None if normalized => id.value.to_ascii_lowercase(),
            _ => id.value.clone(),
        };
        let datafusion::sql::parser::Statement::Statement(s) = statement else {
            return None;
        };
        let sql::Statement::Query(q) = s.as_ref() else {
            return None;
        };
        let SetExpr::Select(select) = q.body.as_ref() else {
            return None;
        };
        let [from] = select.from.as_slice() else {
            return None;
        };
        let TableFactor::Table { name, alias, .. } = &from.relation else {
            return None;
        };
        let [sql::ObjectNamePart::Identifier(table)] = name.0.as_slice() else {
            return None;
        };
        let alias = match alias {
            None => None,
            Some(a) if a.columns.is_empty() => Some(a),
            Some(_) => return None,
        };
        let mut items = Vec::with_capacity(select.projection.len());
        let mut written = Vec::with_capacity(select.projection.len());
        for item in &select.projection {
            let (expr, as_name) = match item {
                SelectItem::UnnamedExpr(e) => (e, None),
                SelectItem::ExprWithAlias { expr, alias } => (expr, Some(alias)),
                _ => return None,
            };
            let sql::Expr::Function(f) = expr else {
                return None;
            };
            let [sql::ObjectNamePart::Identifier(fname)] = f.name.0.as_slice() else {
                return None;
            };
            if fname.quote_style.is_some() {
                return None;
            }
            let func = fname.value.to_ascii_lowercase();
            if !matches!(func.as_str(), "count" | "min" | "max") {
                return None;
            }
            let FunctionArguments::List(list) = &f.args else {
                return None;
            };
            let [FunctionArg::Unnamed(arg)] = list.args.as_slice() else {
                return None;
            };
            let (arg, arg_text) = match arg {
                FunctionArgExpr::Wildcard if func == "count" => (None, "*".to_string()),
                FunctionArgExpr::Expr(sql::Expr::Identifier(c)) if plain(c) => {
                    (Some(normalize(c)), c.to_string())
                }
                FunctionArgExpr::Expr(sql::Expr::CompoundIdentifier(parts)) => {
                    let [q, c] = parts.as_slice() else {
                        return None;
                    };
                    if !plain(q) || !plain(c) {
                        return None;
                    }
                    if normalize(q) != normalize(alias.map_or(table, |a| &a.name)) {
                        return None;
                    }
                    (Some(normalize(c)), format!("{q}.{c}"))
                }
                _ => return None,
            };
            written.push(match as_name {
                None => format!("{fname}({arg_text})"),
                Some(a) => format!("{fname}({arg_text}) AS {a}"),
            });
            items.push(Item {
                func,
                arg,
                alias: as_name.map(normalize),
            });
        }
        let mut text = format!("SELECT {} FROM {table}", written.join(", "));
        if let Some(a) = alias {
            let by = if a.explicit { " AS " } else { " " };
            text.push_str(&format!("{by}{}", a.name));
        }
        if q.to_string() != text {
            return None;
        }
        Some(Shape {
            table: normalize(table),
            qualifier: normalize(alias.map_or(table, |a| &a.name)),
            items,
        })
    }
}

/// The query planner of the sessions [`TileDbTableFactory`](super::TileDbTableFactory)
/// makes: a row of literals (what [`MetadataAggregates`] leaves of an
/// answered aggregate) becomes its physical plan directly, as
/// DataFusion's planner makes it (a projection of the literals over one
/// empty row), without the passes of the physical optimizer rules, which
/// leave such a plan as it is; every other plan is DataFusion's
/// ([`DefaultPhysicalPlanner`]). A session of one's own takes it with
/// `SessionStateBuilder::with_query_planner`.
#[derive(Debug, Default, Clone, Copy)]
pub struct AnsweredPlanner;

#[async_trait]
impl QueryPlanner for AnsweredPlanner {
    async fn create_physical_plan(
        &self,
        plan: &LogicalPlan,
        session: &dyn Session,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        if let Some(p) = literal_row(plan)? {
            return Ok(p);
        }
        DefaultPhysicalPlanner::default()
            .create_physical_plan(plan, session)
            .await
    }
}

/// The physical plan of a projection of named literals over one empty row
/// (`None` for any other plan): DataFusion's (`ProjectionExec` over
/// `PlaceholderRowExec`, with the logical schema's metadata).
fn literal_row(plan: &LogicalPlan) -> DfResult<Option<Arc<dyn ExecutionPlan>>> {
    let LogicalPlan::Projection(p) = plan else {
        return Ok(None);
    };
    let LogicalPlan::EmptyRelation(EmptyRelation {
        produce_one_row: true,
        schema,
    }) = p.input.as_ref()
    else {
        return Ok(None);
    };
    if !schema.fields().is_empty() {
        return Ok(None);
    }
    let mut exprs = Vec::with_capacity(p.expr.len());
    for e in &p.expr {
        let Expr::Alias(a) = e else {
            return Ok(None);
        };
        let (Expr::Literal(v, None), None) = (a.expr.as_ref(), &a.metadata) else {
            return Ok(None);
        };
        exprs.push(ProjectionExpr {
            expr: Arc::new(Literal::new(v.clone())),
            alias: a.name.clone(),
        });
    }
    let input = Arc::new(PlaceholderRowExec::new(Arc::clone(schema.inner())));
    let exec = ProjectionExec::try_new_with_schema_metadata(exprs, input, p.schema.as_arrow())?;
    Ok(Some(Arc::new(exec)))
}
