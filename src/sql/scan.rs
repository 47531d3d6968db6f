//! [`TileDbScan`]: the execution plan that reads an array's cells for
//! DataFusion, one partition per slice of the first dimension.

use std::fmt;
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Statistics};
use datafusion::error::Result as DfResult;
use datafusion::execution::TaskContext;
use datafusion::physical_expr::{EquivalenceProperties, PhysicalExpr};
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::stream::RecordBatchReceiverStreamBuilder;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, Partitioning, PlanProperties,
    SendableRecordBatchStream,
};

use super::df_error;
use super::pushdown::{intersect, ColKind, Columns};
use crate::api::Array;
use crate::read::{Bound, DimRange, Order, Query, QueryCondition};

/// Reads an array's cells as Arrow batches: the fields a query uses, the
/// ranges and condition pushed into it, one partition per slice of the
/// first dimension. Made by [`super::TileDbTable`]'s `scan`.
pub struct TileDbScan {
    array: Arc<Array>,
    /// The columns handed out, in the projection's order.
    schema: SchemaRef,
    /// Attributes to read; whether the dimensions are read.
    attributes: Vec<String>,
    coordinates: bool,
    ranges: Vec<(String, Vec<DimRange>)>,
    condition: Option<String>,
    /// The first dimension's name and each partition's slice of it
    /// (`None`: one partition reading everything).
    slices: Option<(String, Vec<DimRange>)>,
    limit: Option<usize>,
    props: Arc<PlanProperties>,
    stats: Arc<Statistics>,
}

impl fmt::Debug for TileDbScan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileDbScan")
            .field("array", &self.array.path())
            .field("ranges", &self.ranges)
            .field("condition", &self.condition)
            .finish_non_exhaustive()
    }
}

impl TileDbScan {
    /// The scan of `projection` (indices into `table_schema`) with the
    /// pushed `ranges` and `condition`, cut into at most `target` slices.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        array: Arc<Array>,
        table_schema: SchemaRef,
        columns: &Columns,
        projection: &[usize],
        ranges: Vec<(String, Vec<DimRange>)>,
        condition: Option<String>,
        limit: Option<usize>,
        target: usize,
        table_stats: &Statistics,
    ) -> DfResult<TileDbScan> {
        let schema = Arc::new(table_schema.project(projection)?);
        let mut attributes = Vec::new();
        let mut coordinates = false;
        for &i in projection {
            match columns.cols[i].kind {
                ColKind::Dim { .. } => coordinates = true,
                ColKind::Attr { .. } => attributes.push(columns.cols[i].name.clone()),
            }
        }
        // The condition is checked now, so that a plan never fails later
        // for its text.
        if let Some(c) = &condition {
            QueryCondition::parse(c).map_err(df_error)?;
        }
        let slices = slices(columns, &ranges, target);
        let parts = slices.as_ref().map_or(1, |(_, s)| s.len().max(1));
        let props = PlanProperties::new(
            EquivalenceProperties::new(schema.clone()),
            Partitioning::UnknownPartitioning(parts),
            EmissionType::Incremental,
            Boundedness::Bounded,
        );
        let mut stats = table_stats.clone().project(Some(&projection.to_vec()));
        if !ranges.is_empty() || condition.is_some() {
            stats.num_rows = stats.num_rows.to_inexact();
        }
        Ok(TileDbScan {
            array,
            schema,
            attributes,
            coordinates,
            ranges,
            condition,
            slices,
            limit,
            props: Arc::new(props),
            stats: Arc::new(stats),
        })
    }

    /// The query partition `p` reads.
    fn query(&self, p: usize) -> DfResult<Query> {
        let mut q = Query {
            attributes: Some(self.attributes.clone()),
            ranges: self.ranges.clone(),
            order: Some(Order::Unordered),
            // Without a field, the coordinates give the row count.
            skip_coordinates: !self.coordinates && !self.attributes.is_empty(),
            ..Query::default()
        };
        if let Some(c) = &self.condition {
            q.condition = Some(QueryCondition::parse(c).map_err(df_error)?);
        }
        if let Some((dim, s)) = &self.slices {
            let slice = s.get(p).cloned().ok_or_else(|| {
                DataFusionError::Internal(format!("TileDbScan has no partition {p}"))
            })?;
            q.ranges.push((dim.clone(), vec![slice]));
        }
        Ok(q)
    }
}

/// The first dimension's slices, one per partition: the cells' extent on
/// it (within the pushed ranges on it) cut into at most `target` parts of
/// equal width. Only integer dimensions are cut.
fn slices(
    columns: &Columns,
    ranges: &[(String, Vec<DimRange>)],
    target: usize,
) -> Option<(String, Vec<DimRange>)> {
    let first = columns
        .cols
        .iter()
        .find(|c| matches!(c.kind, ColKind::Dim { .. }))?;
    let ColKind::Dim {
        span: Some((Bound::Int(lo), Bound::Int(hi))),
    } = &first.kind
    else {
        return None;
    };
    // The extent, narrowed to the pushed ranges' hull on this dimension.
    let mut within = vec![DimRange {
        lo: Bound::Int(*lo),
        hi: Bound::Int(*hi),
    }];
    for (name, rs) in ranges {
        if *name == first.name {
            within = intersect(&within, rs);
        }
    }
    let lo = within.iter().filter_map(|r| int(&r.lo)).min()?;
    let hi = within.iter().filter_map(|r| int(&r.hi)).max()?;
    let width = hi - lo + 1;
    let n = i128::try_from(target).unwrap_or(1).clamp(1, width.max(1));
    if n <= 1 {
        return None;
    }
    let step = (width + n - 1) / n;
    let mut out = Vec::new();
    let mut a = lo;
    while a <= hi {
        let b = (a + step - 1).min(hi);
        out.push(DimRange {
            lo: Bound::Int(a),
            hi: Bound::Int(b),
        });
        a = b + 1;
    }
    Some((first.name.clone(), out))
}

fn int(b: &Bound) -> Option<i128> {
    match b {
        Bound::Int(v) => Some(*v),
        _ => None,
    }
}

fn show_bound(b: &Bound) -> String {
    match b {
        Bound::Int(v) => v.to_string(),
        Bound::Float(v) => format!("{v:?}"),
        Bound::Text(t) => format!("{:?}", String::from_utf8_lossy(t)),
    }
}

fn show_ranges(rs: &[(String, Vec<DimRange>)]) -> String {
    rs.iter()
        .map(|(d, rs)| {
            let parts: Vec<String> = rs
                .iter()
                .map(|r| format!("{}..={}", show_bound(&r.lo), show_bound(&r.hi)))
                .collect();
            if parts.is_empty() {
                format!("{d}: none")
            } else {
                format!("{d}: {}", parts.join(" | "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl DisplayAs for TileDbScan {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "TileDbScan: array={}", self.array.path().display())?;
        let cols: Vec<&str> = self
            .schema
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        write!(f, ", projection=[{}]", cols.join(", "))?;
        if !self.ranges.is_empty() {
            write!(f, ", ranges=[{}]", show_ranges(&self.ranges))?;
        }
        if let Some(c) = &self.condition {
            write!(f, ", condition={c:?}")?;
        }
        if let Some(l) = self.limit {
            write!(f, ", limit={l}")?;
        }
        if let Some((d, s)) = &self.slices {
            write!(f, ", partitions={} by {d}", s.len())?;
        }
        Ok(())
    }
}

impl ExecutionPlan for TileDbScan {
    fn name(&self) -> &str {
        "TileDbScan"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.props
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> DfResult<TreeNodeRecursion>,
    ) -> DfResult<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        if children.is_empty() {
            Ok(self)
        } else {
            Err(DataFusionError::Internal(
                "TileDbScan takes no children".into(),
            ))
        }
    }

    fn partition_statistics(&self, partition: Option<usize>) -> DfResult<Arc<Statistics>> {
        Ok(match partition {
            None => self.stats.clone(),
            Some(_) => Arc::new(self.stats.as_ref().clone().to_inexact()),
        })
    }

    fn execute(
        &self,
        partition: usize,
        _context: Arc<TaskContext>,
    ) -> DfResult<SendableRecordBatchStream> {
        let q = self.query(partition)?;
        let array = self.array.clone();
        let schema = self.schema.clone();
        let limit = self.limit;
        let mut builder = RecordBatchReceiverStreamBuilder::new(schema.clone(), 2);
        let tx = builder.tx();
        builder.spawn_blocking(move || {
            let batches =
                crate::arrow::record_batches(array.array_reader(), &q).map_err(df_error)?;
            let mut left = limit.unwrap_or(usize::MAX);
            for b in batches {
                if left == 0 {
                    break;
                }
                let b = fit(&schema, b?)?;
                let b = if b.num_rows() > left {
                    b.slice(0, left)
                } else {
                    b
                };
                left -= b.num_rows();
                if tx.blocking_send(Ok(b)).is_err() {
                    // The consumer is gone (a limit above, a cancelled query).
                    break;
                }
            }
            Ok(())
        });
        Ok(builder.build())
    }
}

/// A read's batch as the scan's columns, in the projection's order (the
/// read gives dimensions then attributes; without columns, its rows only).
fn fit(schema: &SchemaRef, b: RecordBatch) -> DfResult<RecordBatch> {
    let read = b.schema();
    let idx = schema
        .fields()
        .iter()
        .map(|f| read.index_of(f.name()))
        .collect::<Result<Vec<_>, _>>()?;
    let b = b.project(&idx)?;
    if schema.fields().is_empty() {
        let opts =
            datafusion::arrow::array::RecordBatchOptions::new().with_row_count(Some(b.num_rows()));
        return Ok(RecordBatch::try_new_with_options(
            schema.clone(),
            vec![],
            &opts,
        )?);
    }
    Ok(RecordBatch::try_new(schema.clone(), b.columns().to_vec())?)
}
