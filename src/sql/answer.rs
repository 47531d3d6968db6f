//! `count`, `min` and `max` over a whole array answered from fragment
//! metadata while the query is still a logical plan: an aggregate without
//! `GROUP BY` straight over a [`TileDbTable`] scan (no filter, no limit)
//! whose every expression the table's exact statistics answer becomes a
//! projection of those values over one empty row. The rules and the
//! physical planning after it then run over that trivial plan, not over
//! a scan and an aggregate that DataFusion's own physical rule
//! (`AggregateStatistics`) would answer from the same statistics at the
//! end. Where one expression is not answered exactly, nothing changes.

use std::sync::Arc;

use datafusion::common::stats::Precision;
use datafusion::common::tree_node::Transformed;
use datafusion::common::{Column, ColumnStatistics, DFSchema, Result as DfResult, ScalarValue};
use datafusion::logical_expr::expr::AggregateFunction;
use datafusion::logical_expr::{Aggregate, EmptyRelation, Expr, LogicalPlan, Projection};
use datafusion::optimizer::{ApplyOrder, OptimizerConfig, OptimizerRule};

use super::TileDbTable;

/// The optimizer rule answering `count`, `min` and `max` over a whole
/// array from fragment metadata while the query is a logical plan: an
/// aggregate without `GROUP BY` straight over a table scan (no filter, no
/// limit) whose every expression the table's exact statistics answer
/// becomes a projection of those values over one empty row. Sessions made by
/// [`TileDbTableFactory`](super::TileDbTableFactory) run it first; a
/// session of one's own takes it with
/// `SessionStateBuilder::with_optimizer_rules` (first, so that the rules
/// after it see the small plan).
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
        let answered = match &plan {
            LogicalPlan::Aggregate(agg) => answer(agg),
            _ => None,
        };
        Ok(match answered {
            Some(p) => Transformed::yes(p),
            None => Transformed::no(plan),
        })
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
