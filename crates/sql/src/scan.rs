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
use super::prune::Pruned;
use super::pushdown::{intersect, ColKind, Columns};
use super::stats::Facts;
use tiledb_codec::raw::read::{Bound, DimRange, Order, Query, QueryCondition};
use tiledb_codec::Array;

/// Reads an array's cells as Arrow batches: the fields a query uses, the
/// ranges and condition pushed into it, one partition per slice of the
/// first dimension. Made by [`super::TileDbTable`]'s `scan`.
#[derive(Clone)]
pub struct TileDbScan {
    array: Arc<Array>,
    /// The path or URL the array was opened from.
    location: String,
    /// The columns handed out, in the projection's order.
    schema: SchemaRef,
    /// Attributes to read; whether the dimensions are read.
    attributes: Vec<String>,
    coordinates: bool,
    ranges: Vec<(String, Vec<DimRange>)>,
    condition: Option<QueryCondition>,
    /// The first dimension's name and each partition's slice of it
    /// (`None`: one partition reading everything).
    slices: Option<(String, Vec<DimRange>)>,
    limit: Option<usize>,
    /// The slices this plan's partitions read, by index into `slices`
    /// (all of them, unless a Ballista task's plan was cut to its own).
    parts: Vec<usize>,
    /// On Ballista: a child listing `parts`, one partition each (see
    /// [`TileDbScan::carrying_partitions`]).
    carrier: Option<Arc<dyn ExecutionPlan>>,
    props: Arc<PlanProperties>,
    stats: Arc<Statistics>,
    /// The table's columns this scan hands out (indices into `columns`).
    projection: Vec<usize>,
    /// The table's columns and its fragments' metadata, for each
    /// partition's statistics (`None` on a Ballista executor).
    facts: Option<(Columns, Arc<Facts>)>,
    /// What pruning left out (sparse arrays with filters).
    pruned: Option<Pruned>,
}

impl fmt::Debug for TileDbScan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileDbScan")
            .field("location", &self.location)
            .field("ranges", &self.ranges)
            .field("condition", &self.condition.as_ref().map(|c| c.text()))
            .finish_non_exhaustive()
    }
}

/// The table a scan reads: its array and where it is, its Arrow schema
/// and columns, its statistics and what is known of its fragments.
pub(crate) struct ScanTable<'t> {
    pub(crate) array: Arc<Array>,
    pub(crate) location: String,
    pub(crate) schema: SchemaRef,
    pub(crate) columns: &'t Columns,
    pub(crate) stats: &'t Statistics,
    pub(crate) facts: Arc<Facts>,
}

/// What a query pushed down into a scan: the columns it reads (indices
/// into the table's schema), the ranges and condition, the limit, the
/// number of slices to cut it into at most, and what pruning left out.
pub(crate) struct Pushed<'p> {
    pub(crate) projection: &'p [usize],
    pub(crate) ranges: Vec<(String, Vec<DimRange>)>,
    pub(crate) condition: Option<QueryCondition>,
    pub(crate) limit: Option<usize>,
    pub(crate) target: usize,
    pub(crate) pruned: Option<Pruned>,
}

impl TileDbScan {
    /// The scan of `table` with what the query `pushed` down.
    pub(crate) fn new(table: ScanTable, pushed: Pushed) -> DfResult<TileDbScan> {
        let ScanTable {
            array,
            location,
            schema: table_schema,
            columns,
            stats: table_stats,
            facts,
        } = table;
        let Pushed {
            projection,
            ranges,
            condition,
            limit,
            target,
            pruned,
        } = pushed;
        let schema = Arc::new(table_schema.project(projection)?);
        let mut attributes = Vec::new();
        let mut coordinates = false;
        for &i in projection {
            match columns.cols[i].kind {
                ColKind::Dim { .. } => coordinates = true,
                ColKind::Attr { .. } => attributes.push(columns.cols[i].name.clone()),
            }
        }
        let slices = slices(columns, &ranges, target);
        let parts = all_parts(&slices);
        let props = properties(&schema, parts.len());
        let mut stats = table_stats.clone().project(Some(&projection.to_vec()));
        if !ranges.is_empty() || condition.is_some() || pruned.is_some() {
            // Filtered: the table's counts and bounds only bound the
            // scan's (an exact min would answer `min(a) ... WHERE a > 5`).
            stats = stats.to_inexact();
        }
        Ok(TileDbScan {
            array,
            location,
            schema,
            attributes,
            coordinates,
            ranges,
            condition,
            slices,
            limit,
            parts,
            carrier: None,
            props: Arc::new(props),
            stats: Arc::new(stats),
            projection: projection.to_vec(),
            facts: Some((columns.clone(), facts)),
            pruned,
        })
    }

    /// The same scan with a child that lists its partitions: an in-memory
    /// source of one partition per slice, each one row holding the slice's
    /// index. Ballista gives each task the stage's plan cut down to the
    /// task's partitions, but it can cut only sources it knows, this child
    /// among them; the scan then reads the slices its child still lists
    /// (see `with_new_children`). Without it, every task would read every
    /// slice.
    #[cfg(feature = "ballista")]
    pub(crate) fn carrying_partitions(mut self) -> DfResult<TileDbScan> {
        use datafusion::arrow::array::UInt32Array;
        use datafusion::arrow::datatypes::{DataType, Field, Schema};
        let schema = Arc::new(Schema::new(vec![Field::new(
            CARRIED,
            DataType::UInt32,
            false,
        )]));
        let partitions = self
            .parts
            .iter()
            .map(|&i| {
                let index = u32::try_from(i).map_err(|_| {
                    DataFusionError::Internal("TileDbScan: too many partitions".into())
                })?;
                let column = Arc::new(UInt32Array::from(vec![index]));
                Ok(vec![RecordBatch::try_new(schema.clone(), vec![column])?])
            })
            .collect::<DfResult<Vec<_>>>()?;
        let carrier = datafusion::datasource::memory::MemorySourceConfig::try_new_exec(
            &partitions,
            schema,
            None,
        )?;
        self.carrier = Some(carrier);
        Ok(self)
    }

    /// The query partition `p` reads.
    pub(super) fn query(&self, p: usize) -> DfResult<Query> {
        let mut q = Query::default()
            .with_attributes(self.attributes.clone())
            .with_order(Order::Unordered)
            // Without a field, the coordinates give the row count.
            .with_coordinates(self.coordinates || self.attributes.is_empty());
        q.ranges = self.ranges.clone();
        q.condition = self.condition.clone();
        q.skip_tiles = self.pruned.as_ref().and_then(|p| p.skip.clone());
        let no_partition = || DataFusionError::Internal(format!("TileDbScan has no partition {p}"));
        let index = *self.parts.get(p).ok_or_else(no_partition)?;
        if let Some((dim, s)) = &self.slices {
            let slice = s.get(index).cloned().ok_or_else(no_partition)?;
            q.ranges.push((dim.clone(), vec![slice]));
        }
        Ok(q)
    }
}

/// The name of the column [`TileDbScan::carrying_partitions`]'s child
/// lists slice indices in.
const CARRIED: &str = "tiledb_scan_slice";

/// Every slice's index: one per slice, or the one partition without slices.
fn all_parts(slices: &Option<(String, Vec<DimRange>)>) -> Vec<usize> {
    (0..slices.as_ref().map_or(1, |(_, s)| s.len().max(1))).collect()
}

/// The slice indices a partition carrier lists, in partition order.
fn carried_parts(carrier: &Arc<dyn ExecutionPlan>) -> DfResult<Vec<usize>> {
    use datafusion::arrow::array::UInt32Array;
    use datafusion::datasource::memory::MemorySourceConfig;
    use datafusion::datasource::source::DataSourceExec;
    let bad = || {
        DataFusionError::Internal(format!(
            "TileDbScan's child is not the list of its partitions: {}",
            carrier.name()
        ))
    };
    let exec = carrier.downcast_ref::<DataSourceExec>().ok_or_else(bad)?;
    let source: &dyn std::any::Any = exec.data_source().as_ref();
    let memory = source
        .downcast_ref::<MemorySourceConfig>()
        .ok_or_else(bad)?;
    let mut out = Vec::new();
    for partition in memory.partitions() {
        let mut index = None;
        for b in partition {
            let col = b.column_by_name(CARRIED).ok_or_else(bad)?;
            let col = col.as_any().downcast_ref::<UInt32Array>().ok_or_else(bad)?;
            if let Some(&v) = col.values().first() {
                index = Some(v as usize);
            }
        }
        out.push(index.ok_or_else(bad)?);
    }
    Ok(out)
}

/// The plan's properties: `parts` partitions.
fn properties(schema: &SchemaRef, parts: usize) -> PlanProperties {
    PlanProperties::new(
        EquivalenceProperties::new(schema.clone()),
        Partitioning::UnknownPartitioning(parts),
        EmissionType::Incremental,
        Boundedness::Bounded,
    )
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
    let mut within = vec![DimRange::new(Bound::Int(*lo), Bound::Int(*hi))];
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
        out.push(DimRange::new(Bound::Int(a), Bound::Int(b)));
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

impl TileDbScan {
    /// This scan reading the slices `carrier` lists.
    fn with_carrier(&self, carrier: Arc<dyn ExecutionPlan>) -> DfResult<TileDbScan> {
        let parts = carried_parts(&carrier)?;
        let count = all_parts(&self.slices).len();
        if let Some(bad) = parts.iter().find(|&&i| i >= count) {
            return Err(DataFusionError::Internal(format!(
                "TileDbScan has {count} slices, not a slice {bad}"
            )));
        }
        Ok(TileDbScan {
            props: Arc::new(properties(&self.schema, parts.len())),
            stats: Arc::new(self.stats.as_ref().clone().to_inexact()),
            parts,
            carrier: Some(carrier),
            ..self.clone()
        })
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
        write!(f, "TileDbScan: array={}", self.location)?;
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
            write!(f, ", condition={:?}", c.text())?;
        }
        if let Some(l) = self.limit {
            write!(f, ", limit={l}")?;
        }
        if let Some(p) = &self.pruned {
            write!(
                f,
                ", pruning_predicate={}, pruned fragments={}/{} tiles={}/{}",
                p.predicate, p.fragments.0, p.fragments.1, p.tiles.0, p.tiles.1
            )?;
        }
        if let Some((d, _)) = &self.slices {
            write!(f, ", partitions={} by {d}", self.parts.len())?;
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
        self.carrier.iter().collect()
    }

    fn benefits_from_input_partitioning(&self) -> Vec<bool> {
        // The carrier is a list, not input: it is never repartitioned.
        vec![false; self.carrier.iter().count()]
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> DfResult<TreeNodeRecursion>,
    ) -> DfResult<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        mut children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        match (children.pop(), children.is_empty(), &self.carrier) {
            (None, _, None) => Ok(self),
            (Some(carrier), true, Some(_)) => Ok(Arc::new(self.with_carrier(carrier)?)),
            _ => Err(DataFusionError::Internal(
                "TileDbScan takes no children, or the list of its partitions".into(),
            )),
        }
    }

    fn partition_statistics(&self, partition: Option<usize>) -> DfResult<Arc<Statistics>> {
        let Some(p) = partition else {
            return Ok(self.stats.clone());
        };
        let index = *self
            .parts
            .get(p)
            .ok_or_else(|| DataFusionError::Internal(format!("TileDbScan has no partition {p}")))?;
        let slice = self.slices.as_ref().and_then(|(_, s)| s.get(index));
        Ok(match (slice, &self.facts) {
            // One partition reading everything: the scan's statistics.
            (None, _) if self.parts.len() == 1 && self.carrier.is_none() => self.stats.clone(),
            (Some(slice), Some((columns, facts))) => Arc::new(super::stats::slice_statistics(
                &self.stats,
                &self.projection,
                columns,
                facts,
                self.pruned.as_ref().map(|p| p.dropped.as_slice()),
                slice,
                !self.ranges.is_empty() || self.condition.is_some(),
            )),
            _ => Arc::new(self.stats.as_ref().clone().to_inexact()),
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
            let batches = tiledb_codec::raw::arrow::record_batches(
                tiledb_codec::raw::array_reader(&array),
                &q,
            )
            .map_err(df_error)?;
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

/// A [`TileDbScan`] as Ballista sends it to the executors: what to open
/// and what to read, without the array itself.
#[cfg(feature = "ballista")]
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct ScanWire {
    location: String,
    columns: Vec<String>,
    attributes: Vec<String>,
    coordinates: bool,
    ranges: Vec<(String, Vec<RangeWire>)>,
    /// The condition's text (its rendering, which parses back to it).
    condition: Option<String>,
    slices: Option<(String, Vec<RangeWire>)>,
    limit: Option<usize>,
    /// What the planner's pruning left out, so that the executors skip it
    /// too.
    #[serde(default)]
    pruned: Option<PrunedWire>,
}

/// [`Pruned`] on the wire, with the fragments it was made over (their
/// folder names, in order): an executor that opens the array with other
/// fragments reads it unpruned rather than skip the wrong ones.
#[cfg(feature = "ballista")]
#[derive(serde::Serialize, serde::Deserialize)]
struct PrunedWire {
    predicate: String,
    fragments: (usize, usize),
    tiles: (usize, usize),
    names: Vec<String>,
    dropped: Vec<bool>,
    skip: Vec<(usize, u64)>,
}

/// The folder names of `array`'s fragments, in its order.
#[cfg(feature = "ballista")]
fn fragment_names(array: &Array) -> Vec<String> {
    tiledb_codec::raw::array_reader(array)
        .fragments
        .iter()
        .map(|f| {
            f.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect()
}

/// A [`DimRange`] on the wire: integers as decimal text (JSON numbers stop
/// at 64 bits), floats as their bits (NaN and infinities are not JSON).
#[cfg(feature = "ballista")]
#[derive(serde::Serialize, serde::Deserialize)]
enum BoundWire {
    Int(String),
    Float(u64),
    Text(Vec<u8>),
}

#[cfg(feature = "ballista")]
type RangeWire = (BoundWire, BoundWire);

#[cfg(feature = "ballista")]
fn ranges_to_wire(rs: &[DimRange]) -> Vec<RangeWire> {
    let b = |b: &Bound| match b {
        Bound::Int(v) => BoundWire::Int(v.to_string()),
        Bound::Float(v) => BoundWire::Float(v.to_bits()),
        Bound::Text(t) => BoundWire::Text(t.clone()),
    };
    rs.iter().map(|r| (b(&r.lo), b(&r.hi))).collect()
}

#[cfg(feature = "ballista")]
fn ranges_from_wire(rs: Vec<RangeWire>) -> DfResult<Vec<DimRange>> {
    let b = |b: BoundWire| -> DfResult<Bound> {
        Ok(match b {
            BoundWire::Int(v) => Bound::Int(v.parse().map_err(|_| {
                DataFusionError::Internal(format!("TileDbScan: bad integer bound {v:?}"))
            })?),
            BoundWire::Float(v) => Bound::Float(f64::from_bits(v)),
            BoundWire::Text(t) => Bound::Text(t),
        })
    };
    rs.into_iter()
        .map(|(lo, hi)| Ok(DimRange::new(b(lo)?, b(hi)?)))
        .collect()
}

#[cfg(feature = "ballista")]
impl TileDbScan {
    /// What an executor needs to rebuild this scan.
    pub(crate) fn to_wire(&self) -> ScanWire {
        ScanWire {
            location: self.location.clone(),
            columns: self
                .schema
                .fields()
                .iter()
                .map(|f| f.name().clone())
                .collect(),
            attributes: self.attributes.clone(),
            coordinates: self.coordinates,
            ranges: self
                .ranges
                .iter()
                .map(|(d, rs)| (d.clone(), ranges_to_wire(rs)))
                .collect(),
            condition: self.condition.as_ref().map(|c| c.text().to_string()),
            slices: self
                .slices
                .as_ref()
                .map(|(d, rs)| (d.clone(), ranges_to_wire(rs))),
            limit: self.limit,
            pruned: self.pruned.as_ref().map(|p| {
                let mut skip: Vec<(usize, u64)> = p
                    .skip
                    .as_ref()
                    .map(|s| s.iter().copied().collect())
                    .unwrap_or_default();
                skip.sort_unstable();
                PrunedWire {
                    predicate: p.predicate.clone(),
                    fragments: p.fragments,
                    tiles: p.tiles,
                    names: fragment_names(&self.array),
                    dropped: p.dropped.clone(),
                    skip,
                }
            }),
        }
    }

    /// The array's location in a wire scan, to open it before
    /// [`Self::from_wire`].
    pub(crate) fn wire_location(wire: &ScanWire) -> &str {
        &wire.location
    }

    /// The scan `wire` describes, over `array` (opened from its location).
    /// The columns are the array's own Arrow columns, so a schema change
    /// since planning is an error, not a misread.
    /// `inputs` are the decoded children: the partition carrier, if any.
    pub(crate) fn from_wire(
        array: Arc<Array>,
        wire: ScanWire,
        inputs: &[Arc<dyn ExecutionPlan>],
    ) -> DfResult<TileDbScan> {
        let table = tiledb_codec::raw::arrow::arrow_schema(
            tiledb_codec::raw::array_reader(&array),
            &Query::default(),
        )
        .map_err(df_error)?;
        let idx = wire
            .columns
            .iter()
            .map(|c| {
                table.index_of(c).map_err(|_| {
                    DataFusionError::Plan(format!(
                        "{}: the array has no field {c:?} (its schema changed since the \
                         query was planned?)",
                        wire.location
                    ))
                })
            })
            .collect::<DfResult<Vec<usize>>>()?;
        let schema = Arc::new(table.project(&idx)?);
        let condition = wire
            .condition
            .as_deref()
            .map(QueryCondition::parse)
            .transpose()
            .map_err(df_error)?;
        let ranges = wire
            .ranges
            .into_iter()
            .map(|(d, rs)| Ok((d, ranges_from_wire(rs)?)))
            .collect::<DfResult<Vec<_>>>()?;
        let slices = match wire.slices {
            Some((d, rs)) => Some((d, ranges_from_wire(rs)?)),
            None => None,
        };
        let parts = all_parts(&slices);
        let props = properties(&schema, parts.len());
        let stats = Statistics::new_unknown(&schema);
        // The planner's pruning holds for the fragments it saw: kept only
        // where the executor opened the same ones.
        let pruned = wire
            .pruned
            .filter(|p| p.names == fragment_names(&array) && p.dropped.len() == p.names.len())
            .map(|p| Pruned {
                predicate: p.predicate,
                fragments: p.fragments,
                tiles: p.tiles,
                dropped: p.dropped,
                skip: (!p.skip.is_empty()).then(|| {
                    Arc::new(p.skip.into_iter().collect::<std::collections::HashSet<_>>())
                }),
            });
        let scan = TileDbScan {
            array,
            location: wire.location,
            schema,
            attributes: wire.attributes,
            coordinates: wire.coordinates,
            ranges,
            condition,
            slices,
            limit: wire.limit,
            parts,
            carrier: None,
            props: Arc::new(props),
            stats: Arc::new(stats),
            projection: Vec::new(),
            facts: None,
            pruned,
        };
        match inputs {
            [] => Ok(scan),
            [carrier] => scan.with_carrier(carrier.clone()),
            _ => Err(DataFusionError::Internal(
                "TileDbScan: more than one child on the wire".into(),
            )),
        }
    }
}
