//! Dense reads planned: the region, the fragments that write it, the
//! attributes, batches of the selection.

use super::array_reader::ArrayReader;
use super::array_reader::*;
use super::column::{Cells, DenseColumn};
use super::dense;
use super::query::{Order, Query};
use super::query_condition::BoundCondition;
use crate::array::fragment::Fragment;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::Datatype;

/// A dense read planned.
pub(super) struct DensePlan<'a> {
    pub(super) grid: dense::Grid,
    pub(super) frags: Vec<dense::DenseFragment<'a>>,
    pub(super) dims: Vec<FieldInfo>,
    pub(super) attrs: Vec<dense::DenseAttr>,
    pub(super) sel: dense::Selection,
    pub(super) condition: Option<BoundCondition>,
    /// How many attributes at the end of `attrs` only the condition reads.
    pub(super) extra: usize,
}

impl ArrayReader {
    pub(super) fn dim_ranges(&self) -> Result<Vec<(Datatype, i128, i128, i128)>> {
        // (datatype, domain lo, domain hi, tile extent) of each dimension.
        self.schema
            .domain
            .dimensions
            .iter()
            .map(|d| {
                let dt = crate::array::schema::dimension_datatype(&self.schema, d).known();
                let w = d.domain.len() / 2;
                let r = dt.and_then(|dt| {
                    Some((
                        dt,
                        int_of(dt, &d.domain[..w])?,
                        int_of(dt, &d.domain[w..])?,
                        int_of(dt, &d.tile_extent)?,
                    ))
                });
                r.filter(|r| r.3 > 0).ok_or_else(|| Error::Unsupported {
                    path: self.dir.root.clone(),
                    what: "dense arrays need integer dimensions with tile extents".into(),
                })
            })
            .collect()
    }

    pub(super) fn fragment_ned(&self, f: &Fragment) -> Option<Vec<(i128, i128)>> {
        f.non_empty_domain()
            .ok()??
            .iter()
            .map(|r| r.as_i128().map(|r| (r.start, r.end)))
            .collect()
    }

    /// The current domain of an array with integer dimensions, one
    /// inclusive range per dimension: `Ok(None)` when none is set (absent
    /// or empty, which the engine takes as "the whole domain"), an error
    /// when its ranges do not fit the dimensions.
    pub(crate) fn current_domain_ints(&self) -> Result<Option<Vec<(i128, i128)>>> {
        let Some(c) = &self.schema.current_domain else {
            return Ok(None);
        };
        if c.empty != 0 {
            return Ok(None);
        }
        let bad = || Error::Unsupported {
            path: self.dir.root.clone(),
            what: "a current domain whose ranges are not integer ranges of the dimensions".into(),
        };
        let mbr = c.ndrectangle.as_ref().ok_or_else(bad)?;
        let ranges = crate::model::table::ranges_from_mbr(&self.schema, mbr).ok_or_else(bad)?;
        let ints: Option<Vec<(i128, i128)>> = ranges
            .iter()
            .map(|r| r.as_i128().map(|r| (r.start, r.end)))
            .collect();
        ints.map(Some).ok_or_else(bad)
    }

    /// What a dense read of `q` reads: the grid, the fragments, the fields
    /// (with the condition's), the selection in the result's order.
    pub(super) fn dense_plan(&self, q: &Query) -> Result<DensePlan<'_>> {
        if q.skip_tiles.is_some() {
            return Err(Error::Query {
                path: self.dir.root.clone(),
                what: "skipped tiles apply to sparse reads only".into(),
            });
        }
        let (dims, attrs) = self.fields(q)?;
        let ranges = self.dim_ranges()?;
        let frags: Vec<dense::DenseFragment> = self
            .fragments
            .iter()
            .map(|f| {
                self.fragment_ned(f)
                    .filter(|ned| ned.len() == ranges.len())
                    .map(|ned| dense::DenseFragment { frag: f, ned })
                    .ok_or_else(|| Error::Unsupported {
                        path: f.path.clone(),
                        what: "non-empty domain".into(),
                    })
            })
            .collect::<Result<_>>()?;
        let grid = dense::Grid {
            lo: ranges.iter().map(|r| r.1).collect(),
            hi: ranges.iter().map(|r| r.2).collect(),
            ext: ranges.iter().map(|r| r.3).collect(),
            tile_layout: Some(self.schema.tile_order),
            cell_layout: Some(self.schema.cell_order),
        };
        let neds: Vec<Vec<(i128, i128)>> = frags.iter().map(|f| f.ned.clone()).collect();
        let current = self.current_domain_ints()?;
        let sel = dense::selection(&self.dir.root, &grid, current.as_deref(), &dims, q, &neds)?;
        let nd = dims.len();
        let perm: Vec<usize> = match q.order {
            Some(Order::ColMajor) => (0..nd).rev().collect(),
            _ => (0..nd).collect(),
        };
        let condition = match &q.condition {
            Some(c) => Some(c.bind(self)?),
            None => None,
        };
        // The condition's attributes are read too.
        let mut all = attrs.clone();
        let mut extra = 0;
        if let Some(c) = &q.condition {
            for n in c.field_names() {
                if dims.iter().any(|d| d.name == n) || all.iter().any(|a| a.name == n) {
                    continue;
                }
                let f = FieldInfo::lookup(&self.schema, &n).ok_or_else(|| Error::Condition {
                    text: format!("{c:?}"),
                    what: format!("the array has no field {n:?}"),
                })?;
                all.push(f);
                extra += 1;
            }
        }
        let mut dattrs = Vec::with_capacity(all.len());
        for a in &all {
            let spec = self
                .schema
                .attributes
                .iter()
                .find(|x| x.name == a.name.as_bytes())
                .expect("attributes come from the schema");
            let fill = spec
                .fill_value
                .clone()
                .unwrap_or_else(|| vec![0; a.cell_size() as usize]);
            let fill_valid = spec.fill_value_validity.unwrap_or(0) != 0 || !a.nullable;
            let fields = frags
                .iter()
                .map(|f| FieldInfo::lookup(&f.frag.schema, &a.name))
                .collect();
            dattrs.push(dense::DenseAttr {
                field: a.clone(),
                fill: fill_valid.then_some(fill),
                fields,
            });
        }
        Ok(DensePlan {
            grid,
            frags,
            dims,
            attrs: dattrs,
            sel: dense::Selection { dims: sel, perm },
            condition,
            extra,
        })
    }

    /// Bytes a cell of the result takes (and more for var-sized cells
    /// while they are overwritten).
    pub(super) fn dense_cell_bytes(plan: &DensePlan, coords: bool) -> u64 {
        let d: u64 = if coords {
            plan.dims.iter().map(|f| f.cell_size()).sum()
        } else {
            0
        };
        d + plan
            .attrs
            .iter()
            .map(|a| {
                let bytes = a
                    .field
                    .cell_size()
                    .max(a.fill.as_ref().map_or(0, |f| f.len() as u64));
                if a.field.cell_val_num.is_some() {
                    bytes + u64::from(a.field.nullable)
                } else {
                    bytes
                        .saturating_mul(2)
                        .saturating_add(DenseColumn::SPAN_BYTES)
                }
            })
            .sum::<u64>()
    }

    /// The cells of `sel` of the plan's attributes (and coordinates with
    /// `coords`), those with a sink decoded into it
    /// ([`dense::DenseRead::read_batch`]).
    pub(super) fn plan_batch(
        &self,
        plan: &DensePlan,
        sel: &dense::Selection,
        coords: bool,
        sinks: &mut [Option<dense::FixedSink>],
    ) -> Result<Cells> {
        let read = dense::DenseRead {
            grid: &plan.grid,
            frags: &plan.frags,
            dims: &plan.dims,
            attrs: &plan.attrs,
            stats: &self.stats,
            opts: &self.opts,
        };
        read.read_batch(sel, coords, sinks)
    }

    /// One batch of a dense read: its cells, the condition applied.
    pub(super) fn dense_batch(
        &self,
        plan: &DensePlan,
        sel: &dense::Selection,
        q: &Query,
    ) -> Result<Cells> {
        let coords = !q.skip_coordinates || plan.condition.is_some();
        let mut cells = self.plan_batch(plan, sel, coords, &mut [])?;
        if let Some(c) = &plan.condition {
            let mask = c.evaluate(&cells)?;
            let nd = if coords { plan.dims.len() } else { 0 };
            for (col, a) in cells.columns[nd..].iter_mut().zip(&plan.attrs) {
                col.replace_failing(&mask, a.fill.as_deref());
            }
            let keep = cells.columns.len() - plan.extra;
            cells.columns.truncate(keep);
            if q.skip_coordinates {
                cells.columns.drain(..plan.dims.len());
            }
        }
        Ok(cells)
    }

    pub(super) fn read_dense(&self, q: &Query) -> Result<Cells> {
        let plan = self.dense_plan(q)?;
        self.read_dense_planned(&plan, q)
    }

    /// [`ArrayReader::read_dense`] of a plan already made for `q`.
    pub(super) fn read_dense_planned(&self, plan: &DensePlan<'_>, q: &Query) -> Result<Cells> {
        let per_cell = Self::dense_cell_bytes(plan, true);
        let limit = q.memory_budget.unwrap_or(self.opts.max_tile_bytes());
        let cells = plan.sel.cells();
        let fits = u64::try_from(cells)
            .ok()
            .and_then(|c| c.checked_mul(per_cell))
            .is_some_and(|b| b <= limit);
        if !fits {
            return Err(Error::Query {
                path: self.dir.root.clone(),
                what: format!(
                    "a dense read of {cells} cells of {per_cell} bytes exceeds the limit of {limit} bytes (Query::memory_budget, else ReadOptions::max_tile_bytes): read it in batches (ArrayReader::batches), or raise the budget"
                ),
            });
        }
        let sel = plan.sel.clone();
        self.dense_batch(plan, &sel, q)
    }
}
