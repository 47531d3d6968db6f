//! `count`, `min` and `max` over a whole array answered from fragment
//! metadata while the query is still a logical plan: an aggregate without
//! `GROUP BY` straight over a [`TileDbTable`] scan (no filter, no limit)
//! whose every expression the table's exact statistics answer becomes a
//! projection of those values over one empty row. The rules and the
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
use datafusion::common::{Column, ColumnStatistics, DFSchema, Result as DfResult, ScalarValue};
use datafusion::execution::context::QueryPlanner;
use datafusion::logical_expr::expr::AggregateFunction;
use datafusion::logical_expr::{Aggregate, EmptyRelation, Expr, LogicalPlan, Projection};
use datafusion::optimizer::{AnalyzerRule, ApplyOrder, OptimizerConfig, OptimizerRule};
use datafusion::physical_expr::expressions::Literal;
use datafusion::physical_plan::placeholder_row::PlaceholderRowExec;
use datafusion::physical_plan::projection::{ProjectionExec, ProjectionExpr};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_planner::{DefaultPhysicalPlanner, PhysicalPlanner};

use super::TileDbTable;

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
    let LogicalPlan::TableScan(scan) = agg.input.as_ref() else {
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
    let column = |c: &Column| -> Option<&ColumnStatistics> {
        let i = table.schema.index_of(&c.name).ok()?;
        state.stats.column_statistics.get(i)
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
        let v = match (func.name(), arg) {
            // count(*) (a count of a non-null literal).
            ("count", Expr::Literal(v, _)) if !v.is_null() => {
                ScalarValue::Int64(Some(i64::try_from(rows).ok()?))
            }
            ("count", Expr::Column(c)) => {
                let Precision::Exact(nulls) = column(c)?.null_count else {
                    return None;
                };
                ScalarValue::Int64(Some(i64::try_from(rows.checked_sub(nulls)?).ok()?))
            }
            ("min", Expr::Column(c)) => match &column(c)?.min_value {
                Precision::Exact(v) => v.clone(),
                _ => return None,
            },
            ("max", Expr::Column(c)) => match &column(c)?.max_value {
                Precision::Exact(v) => v.clone(),
                _ => return None,
            },
            _ => return None,
        };
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
