//! Opening an array for reading ([`ArrayReader::open`]) and reading its
//! cells ([`ArrayReader::read`], [`ArrayReader::batches`]), as the engine
//! returns them: dense arrays cell by cell over a region (later fragments
//! overwrite earlier ones; cells no fragment wrote hold the fill value),
//! sparse arrays the cells of all fragments (duplicates kept when the
//! schema allows them, else the newest wins; delete conditions applied).

use std::path::Path;

use super::array_reader::ArrayReader;
use super::batches::*;
use super::column::Cells;
use super::dense;
use super::field::ReadStats;
use super::query::{Order, Query};
use super::range::{Bound, DimRange};
use super::sparse;
use super::sparse::below;
use crate::array::directory::{relisting, vanished, ArrayDirectory, RELIST_ATTEMPTS};
use crate::array::fragment::Fragment;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::version::has_consolidation_with_timestamps;
use crate::format::ArrayType;
use crate::storage::StorageRef;
use crate::ReadOptions;

impl ArrayReader {
    /// Opens the array at `path` with every committed fragment.
    pub fn open(path: &Path, opts: &ReadOptions) -> Result<Self> {
        Self::open_at(path, None, opts)
    }

    /// Opens the array as of the timestamp range `[t1, t2]` (milliseconds):
    /// fragments, deletes and metadata written in it.
    pub fn open_at(path: &Path, range: Option<(u64, u64)>, opts: &ReadOptions) -> Result<Self> {
        Self::open_in(StorageRef::default(), path, range, opts)
    }

    /// Opens the array at `path` of `storage` (local files, objects in
    /// memory, or any other [`crate::storage::Storage`]), as of the
    /// timestamp range `range` when given.
    ///
    /// A consolidation or vacuum beside the open never makes it fail: a
    /// file listed and removed before it was read (a fragment's metadata,
    /// a `.vac`, `.con`, `.ign` or `.meta` file) makes it list the array
    /// again and start over (at most [`RELIST_ATTEMPTS`] times).
    pub fn open_in(
        storage: StorageRef,
        path: &Path,
        range: Option<(u64, u64)>,
        opts: &ReadOptions,
    ) -> Result<Self> {
        relisting(path, || Self::open_once(storage.clone(), path, range, opts))
    }

    fn open_once(
        storage: StorageRef,
        path: &Path,
        range: Option<(u64, u64)>,
        opts: &ReadOptions,
    ) -> Result<Self> {
        let mut dir = ArrayDirectory::open_in(storage, path)?;
        let schema_path = dir.latest_schema().ok_or_else(|| Error::NotTileDb {
            path: path.to_path_buf(),
            what: "the array has no schema".into(),
        })?;
        // Through the directory's cache: the fragments name the same
        // schema, and their opening finds it there (read and decoded once).
        let schema = dir.schema(&schema_path, opts)?.as_ref().clone();
        if let Some((s, e)) = range {
            let dense = schema.array_type == ArrayType::Dense;
            // Dense arrays and old fragments: whole fragments inside the range;
            // sparse fragments from version 15: any overlap (cells are then
            // filtered by their timestamps).
            dir.fragments.retain(|f| {
                let n = &f.name;
                if !dense && has_consolidation_with_timestamps(n.version) {
                    n.t1 <= e && s <= n.t2
                } else {
                    n.t1 >= s && n.t2 <= e
                }
            });
            dir.deletes.retain(|d| d.name.t1 >= s && d.name.t2 <= e);
            dir.updates.retain(|d| d.name.t1 >= s && d.name.t2 <= e);
        }
        // Footers are independent: read them in parallel (from an object
        // store, their tails fetched concurrently first).
        let fragments = Fragment::open_all(&dir, &dir.fragments, opts)?;
        Ok(ArrayReader {
            dir,
            schema,
            fragments,
            opts: *opts,
            stats: ReadStats::default(),
            time_range: range,
        })
    }

    /// The options the array was opened with.
    pub fn options(&self) -> &ReadOptions {
        &self.opts
    }

    /// The fields whose columns a read of `q` returns, in order: the
    /// dimensions (unless [`Query::skip_coordinates`]), then the attributes.
    pub fn result_fields(&self, q: &Query) -> Result<Vec<FieldInfo>> {
        let (dims, attrs) = self.fields(q)?;
        Ok(if q.skip_coordinates {
            attrs
        } else {
            dims.into_iter().chain(attrs).collect()
        })
    }

    pub(super) fn fields(&self, q: &Query) -> Result<(Vec<FieldInfo>, Vec<FieldInfo>)> {
        let dims = self
            .schema
            .domain
            .dimensions
            .iter()
            // A dimension whose name an attribute also has is found as the
            // attribute (the engine refuses such schemas): refused here too.
            .map(|d| {
                FieldInfo::lookup(&self.schema, &String::from_utf8_lossy(&d.name))
                    .filter(|f| f.is_dimension)
            })
            .collect::<Option<Vec<_>>>();
        let names: Vec<String> = match &q.attributes {
            Some(a) => a.clone(),
            None => self
                .schema
                .attributes
                .iter()
                .map(|a| String::from_utf8_lossy(&a.name).into_owned())
                .collect(),
        };
        let mut attrs = Vec::new();
        for n in names {
            let f = FieldInfo::lookup(&self.schema, &n)
                .filter(|f| !f.is_dimension)
                .ok_or_else(|| Error::NotTileDb {
                    path: self.dir.root.clone(),
                    what: format!("the array has no attribute {n:?}"),
                })?;
            attrs.push(f);
        }
        let dims = dims.ok_or_else(|| Error::Unsupported {
            path: self.dir.root.clone(),
            what: "a dimension has a datatype this crate does not know, or an attribute's name"
                .into(),
        })?;
        // A cell no tile may hold cannot be read (and its fill value must
        // not be allocated): cell sizes come from the schema.
        let limit = self.opts.max_tile_bytes();
        if let Some(f) = dims.iter().chain(&attrs).find(|f| f.cell_size() > limit) {
            return Err(Error::Unsupported {
                path: self.dir.root.clone(),
                what: format!(
                    "the cells of {:?} take {} bytes, over the limit of {limit} bytes",
                    f.name,
                    f.cell_size()
                ),
            });
        }
        Ok((dims, attrs))
    }

    /// The cells the query asks for, in batches of at most
    /// [`Query::batch_cells`] cells, holding at most about
    /// [`Query::memory_budget`] bytes at once.
    pub fn batches<'a>(&'a self, q: &Query) -> Result<Batches<'a>> {
        let size = q.batch_cells.unwrap_or(Query::DEFAULT_BATCH_CELLS).max(1);
        let budget = q.memory_budget.unwrap_or(Query::DEFAULT_MEMORY_BUDGET);
        if self.schema.array_type == ArrayType::Dense {
            let plan = self.dense_plan(q)?;
            let per_cell = Self::dense_cell_bytes(&plan, true).max(1);
            // Half the budget for the batch, the rest for tiles being decoded.
            let cells = (budget / 2 / per_cell).max(1);
            let size = size.min(usize::try_from(cells).unwrap_or(usize::MAX));
            // A batch is at least one row of the outermost dimension: a
            // row larger than the budget (a huge domain) is refused, not
            // allocated.
            let row = plan.sel.row_cells();
            let fits = u64::try_from(row)
                .ok()
                .and_then(|r| r.checked_mul(per_cell))
                .is_some_and(|b| b <= budget);
            if !fits {
                return Err(Error::Query {
                    path: self.dir.root.clone(),
                    what: format!(
                        "one row of this dense read holds {row} cells of {per_cell} bytes, more than the memory budget of {budget} bytes (Query::memory_budget): give ranges on the dimensions"
                    ),
                });
            }
            let sels = dense::batches(&plan.sel, size);
            return Ok(Batches {
                reader: self,
                inner: BatchesInner::Dense {
                    reader: self,
                    plan: Box::new(plan),
                    sels,
                    query: Box::new(q.clone()),
                },
            });
        }
        // Sparse: when the cells the query may select would not fit half
        // the budget, slabs of the outermost dimension of the order, cut
        // where tiles start, are read one after the other.
        if let Some(slabs) = self.sparse_slabs(q, budget)? {
            return Ok(Batches {
                reader: self,
                inner: BatchesInner::Slabs {
                    reader: self,
                    slabs: slabs.into_iter(),
                    size,
                    current: None,
                },
            });
        }
        let cells = self.read(q)?;
        Ok(Batches {
            reader: self,
            inner: BatchesInner::Buffered { cells, at: 0, size },
        })
    }

    /// The queries of the slabs of a sparse read larger than half of
    /// `budget`, in the order of the result; `None`: one read (it fits, or
    /// the order or the dimension cannot be cut: global order, strings).
    pub(super) fn sparse_slabs(&self, q: &Query, budget: u64) -> Result<Option<Vec<Query>>> {
        let (dims, attrs) = self.fields(q)?;
        let d = match q.order {
            None | Some(Order::RowMajor) | Some(Order::Unordered) => 0,
            Some(Order::ColMajor) => dims.len() - 1,
            Some(Order::GlobalOrder) => return Ok(None),
        };
        let ranges = self.dim_ranges_of(q, &dims)?;
        let Some(mut lows) = sparse::tile_lows(&self.fragments, &dims, &ranges, d, &self.opts)?
        else {
            return Ok(None);
        };
        let per_cell = sparse::cell_bytes(dims.iter().chain(&attrs));
        let per_tile = self.schema.capacity.max(1).saturating_mul(per_cell);
        // Tiles of one slab: half the budget, at least one.
        let tiles_per = (budget / 2 / per_tile.max(1)).max(1) as usize;
        if lows.len() <= tiles_per {
            return Ok(None);
        }
        lows.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let mut cuts: Vec<Bound> = Vec::new();
        for lo in lows.iter().skip(tiles_per).step_by(tiles_per) {
            if cuts.last() != Some(lo) && below(lo).is_some() {
                cuts.push(lo.clone());
            }
        }
        let (lo_dom, hi_dom) = self.domain_bounds(&dims[d], d)?;
        cuts.retain(|c| *c > lo_dom && *c <= hi_dom);
        if cuts.is_empty() {
            return Ok(None);
        }
        let name = dims[d].name.clone();
        let mut slabs = Vec::with_capacity(cuts.len() + 1);
        let mut from = lo_dom;
        for cut in cuts.iter().chain(std::iter::once(&hi_dom)) {
            let last = std::ptr::eq(cut, &hi_dom);
            let to = if last {
                hi_dom.clone()
            } else {
                below(cut).expect("checked")
            };
            let mut s = q.clone();
            s.ranges.push((
                name.clone(),
                vec![DimRange {
                    lo: from.clone(),
                    hi: to,
                }],
            ));
            slabs.push(s);
            from = cut.clone();
        }
        Ok(Some(slabs))
    }

    /// The domain of dimension `d` as bounds.
    pub(super) fn domain_bounds(&self, f: &FieldInfo, d: usize) -> Result<(Bound, Bound)> {
        let dim = &self.schema.domain.dimensions[d];
        let w = dim.domain.len() / 2;
        match (
            Bound::of_cell(f.datatype, &dim.domain[..w]),
            Bound::of_cell(f.datatype, &dim.domain[w..]),
        ) {
            (Some(lo), Some(hi)) => Ok((lo, hi)),
            _ => Err(Error::Unsupported {
                path: self.dir.root.clone(),
                what: format!("the domain of {:?}", f.name),
            }),
        }
    }

    /// What reads of this reader decoded so far.
    pub fn stats(&self) -> &ReadStats {
        &self.stats
    }

    /// Reads the cells the query asks for (see [`ArrayReader::retrying`]
    /// for a read that a vacuum overtook).
    pub fn read(&self, q: &Query) -> Result<Cells> {
        self.retrying(|r| {
            if r.schema.array_type == ArrayType::Dense {
                r.read_dense(q)
            } else {
                r.read_sparse(q)
            }
        })
    }

    /// Runs `read` on this reader; when it fails because a file of the
    /// array opened is gone ([`vanished`]: a vacuum removed fragments that
    /// a consolidation had merged into a new one after this reader was
    /// opened), runs it again on the array opened afresh at the same time
    /// range (at most [`RELIST_ATTEMPTS`] times). The cells are then those
    /// of the array as it is at the new open: maintenance never removes a
    /// cell a read sees, it moves cells into new fragments, so the answer
    /// holds every cell this reader would have read, with those committed
    /// since when the reader was opened without a time range. Opened
    /// afresh with another schema (an evolution since), the first error
    /// stands.
    pub fn retrying<T>(&self, mut read: impl FnMut(&ArrayReader) -> Result<T>) -> Result<T> {
        let root = &self.dir.root;
        let mut err = match read(self) {
            Err(e) if vanished(&e, root) => e,
            r => return r,
        };
        for _ in 1..RELIST_ATTEMPTS {
            let fresh =
                ArrayReader::open_in(self.dir.storage.clone(), root, self.time_range, &self.opts)?;
            let schema_name = |r: &ArrayReader| {
                r.dir
                    .latest_schema()
                    .and_then(|p| p.file_name().map(|n| n.to_owned()))
            };
            if schema_name(&fresh) != schema_name(self) {
                return Err(err);
            }
            match read(&fresh) {
                Err(e) if vanished(&e, root) => err = e,
                r => return r,
            }
        }
        Err(err)
    }
}

impl ArrayReader {
    /// Reads every tile of the chosen attributes (default: all) of every
    /// fragment through the filter pipelines, in parallel, and sums up cells,
    /// bytes and a checksum of the values: the throughput probe behind
    /// `scan`. Fragments are not merged (overwritten cells count too).
    pub fn scan(&self, attributes: Option<&[String]>) -> Result<super::field::ScanTotals> {
        self.retrying(|r| r.scan_once(attributes))
    }

    fn scan_once(&self, attributes: Option<&[String]>) -> Result<super::field::ScanTotals> {
        let mut total = super::field::ScanTotals::default();
        for f in &self.fragments {
            let names: Vec<String> = match attributes {
                Some(a) => a.to_vec(),
                None => f
                    .schema
                    .attributes
                    .iter()
                    .map(|a| String::from_utf8_lossy(&a.name).into_owned())
                    .collect(),
            };
            for n in names {
                let field = FieldInfo::lookup(&f.schema, &n).ok_or_else(|| Error::NotTileDb {
                    path: self.dir.root.clone(),
                    what: format!("the array has no field {n:?}"),
                })?;
                total = total + super::field::scan_field(f, &field, &self.opts)?;
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Datatype;
    use crate::model::value;
    use crate::read::column::{Column, DenseColumn};
    use crate::read::sort_keys::*;
    use serde_json::{json, Value};

    fn field(datatype: Datatype, cell_val_num: Option<u32>, nullable: bool) -> FieldInfo {
        FieldInfo {
            name: "a".into(),
            idx: 0,
            is_dimension: false,
            datatype,
            cell_val_num,
            nullable,
            filters: Vec::new(),
        }
    }

    #[test]
    fn float_keys_sort_as_the_json_of_the_coordinates() {
        let xs = [
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            -f64::MAX,
            -1.5,
            -f64::MIN_POSITIVE / 4.0,
            -0.0,
            0.0,
            f64::MIN_POSITIVE / 4.0,
            1.0,
            f64::MAX,
        ];
        for x in xs {
            for y in xs {
                let key = |v: f64| scalar_key(value::Scalar::Float(v));
                let json = |v: f64| vec![value::Scalar::Float(v).json()];
                assert_eq!(
                    key(x).cmp(&key(y)),
                    cmp_values(&json(x), &json(y)),
                    "{x} and {y}"
                );
            }
        }
    }

    #[test]
    fn integer_keys_sort_by_value() {
        let xs = [i64::MIN, -1, 0, 1, i64::MAX];
        for x in xs {
            for y in xs {
                let key = |v: i64| scalar_key(value::Scalar::Int(v));
                assert_eq!(key(x).cmp(&key(y)), x.cmp(&y));
            }
        }
    }

    #[test]
    fn a_fixed_size_column_takes_offsets_for_a_cell_of_another_size() {
        let mut c = Column::new(field(Datatype::Int32, Some(1), false), 3);
        c.push(Some(&[1, 0, 0, 0]));
        c.push(None);
        c.push(Some(&[2, 0]));
        assert_eq!(c.len(), 3);
        assert_eq!(c.get(0), Some(&[1, 0, 0, 0][..]));
        assert_eq!(c.get(1), None);
        assert_eq!(c.get(2), Some(&[2, 0][..]));
        assert_eq!(c.offsets(), Some(&[0, 4, 8, 10][..]));
        assert_eq!(c.json(0), json!(1));
        assert_eq!(c.json(1), Value::Null);
    }

    #[test]
    fn var_sized_cells_of_a_dense_read_keep_their_last_write() {
        let mut c = DenseColumn::new(field(Datatype::StringAscii, None, true), 3, Some(b"ff"));
        c.set(1, Some(b"abc"));
        c.set(2, None);
        c.set(1, Some(b"d"));
        let c = c.finish();
        let cells: Vec<_> = (0..c.len()).map(|i| c.get(i)).collect();
        assert_eq!(cells, [Some(&b"ff"[..]), Some(b"d"), None]);
    }
}
