//! Cells of an array, as the engine returns them: dense arrays cell by cell
//! over a region (later fragments overwrite earlier ones; cells no fragment
//! wrote hold the fill value), sparse arrays the cells of all fragments
//! (duplicates kept when the schema allows them, else the newest wins;
//! delete conditions applied).

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Map, Value};

use super::condition::{holds, CellValue};
use super::field::{read_field, read_zipped_coords, FieldData, FieldInfo};
use crate::array::directory::ArrayDirectory;
use crate::array::fragment::{Fragment, Metadata};
use crate::error::{Error, Result};
use crate::filters::ReadOptions;
use crate::format::{decode_all, ArraySchema, ArrayType, ConditionNode, Datatype, Layout};
use crate::storage::MappedFile;
use crate::tile::read_generic_tile;
use crate::value;

/// What to read.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Attributes to read (`None`: all).
    pub attributes: Option<Vec<String>>,
    /// Per dimension, an inclusive integer range to keep (`None`: no limit).
    pub subarray: Option<Vec<Option<(i128, i128)>>>,
}

/// One column of a result: a field's values for every cell.
#[derive(Debug, Clone)]
pub struct Column {
    pub field: FieldInfo,
    /// Each cell's bytes (`None`: null).
    pub cells: Vec<Option<Vec<u8>>>,
}

impl Column {
    /// The JSON of cell `i`, as `export` prints it.
    pub fn json(&self, i: usize) -> Value {
        match &self.cells[i] {
            None => Value::Null,
            Some(b)
                if self.field.cell_val_num.is_none() && !value::is_text(self.field.datatype) =>
            {
                Value::Array(value::values(self.field.datatype, b))
            }
            Some(b) => value::cell(self.field.datatype, b),
        }
    }
}

/// The cells a query returned, column by column (dimensions first).
#[derive(Debug, Clone)]
pub struct Cells {
    pub columns: Vec<Column>,
    pub len: usize,
}

impl Cells {
    /// Cell `i` as a JSON object: dimension names, then attribute names.
    pub fn row(&self, i: usize) -> Value {
        let mut m = Map::new();
        for c in &self.columns {
            m.insert(c.field.name.clone(), c.json(i));
        }
        Value::Object(m)
    }
}

/// An array opened for reading.
pub struct ArrayReader {
    pub dir: ArrayDirectory,
    pub schema: ArraySchema,
    pub fragments: Vec<Fragment>,
    opts: ReadOptions,
}

/// Reads a field of a fragment and checks what the files gave against
/// itself before cells are taken from it: var-sized offsets must rise
/// within the var data, validity must cover every cell. `cells` is the
/// number of cells the fragment's other fields hold, when known.
fn read_checked(
    frag: &Fragment,
    field: &FieldInfo,
    opts: &ReadOptions,
    cells: Option<usize>,
) -> Result<FieldData> {
    let data = read_field(frag, field, opts)?;
    let bad = |what: String| Err(Error::decode(&frag.path, 0, "Tile", &field.name, what));
    let n = data.len(field.cell_size());
    if let Some(offsets) = &data.offsets {
        let len = data.values.len() as u64;
        let mut prev = 0;
        for (i, &o) in offsets.iter().enumerate() {
            if o < prev || o > len {
                return bad(format!(
                    "cell {i} starts at byte {o}, after the previous cell's {prev} \
                     or past the {len} bytes of var data"
                ));
            }
            prev = o;
        }
    }
    if let Some(v) = &data.validity {
        if v.len() < n {
            return bad(format!("{} validity values for {n} cells", v.len()));
        }
    }
    if let Some(expected) = cells {
        if n != expected {
            return bad(format!(
                "{n} cells, the fragment's first dimension has {expected}"
            ));
        }
    }
    Ok(data)
}

fn int_of(dt: Datatype, b: &[u8]) -> Option<i128> {
    let v = value::cell(dt, b);
    v.as_i64()
        .map(i128::from)
        .or_else(|| v.as_u64().map(i128::from))
}

impl ArrayReader {
    /// Opens the array at `path` with every committed fragment.
    pub fn open(path: &Path, opts: &ReadOptions) -> Result<Self> {
        Self::open_at(path, None, opts)
    }

    /// Opens the array as of the timestamp range `[t1, t2]` (milliseconds):
    /// fragments, deletes and metadata written in it.
    pub fn open_at(path: &Path, range: Option<(u64, u64)>, opts: &ReadOptions) -> Result<Self> {
        let mut dir = ArrayDirectory::open(path)?;
        let schema_path = dir.latest_schema().ok_or_else(|| Error::NotTileDb {
            path: path.to_path_buf(),
            what: "the array has no schema".into(),
        })?;
        let schema = crate::array::schema::read_schema(&schema_path, opts)?;
        if let Some((s, e)) = range {
            let dense = schema.array_type == ArrayType::Dense.value();
            // Dense arrays and old fragments: whole fragments inside the range;
            // sparse fragments from version 15: any overlap (cells are then
            // filtered by their timestamps).
            dir.fragments.retain(|f| {
                let n = &f.name;
                if !dense && n.version >= 15 {
                    n.t1 <= e && s <= n.t2
                } else {
                    n.t1 >= s && n.t2 <= e
                }
            });
            dir.deletes.retain(|d| d.name.t1 >= s && d.name.t2 <= e);
        }
        // Footers are independent: read them in parallel.
        let fragments = {
            use rayon::prelude::*;
            dir.fragments
                .par_iter()
                .map(|e| Fragment::open(&dir, e, opts))
                .collect::<Result<Vec<_>>>()?
        };
        Ok(ArrayReader {
            dir,
            schema,
            fragments,
            opts: *opts,
        })
    }

    fn fields(&self, q: &Query) -> Result<(Vec<FieldInfo>, Vec<FieldInfo>)> {
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

    /// Reads the cells the query asks for.
    pub fn read(&self, q: &Query) -> Result<Cells> {
        if self.schema.array_type == ArrayType::Dense.value() {
            self.read_dense(q)
        } else {
            self.read_sparse(q)
        }
    }

    fn dim_ranges(&self) -> Result<Vec<(Datatype, i128, i128, i128)>> {
        // (datatype, domain lo, domain hi, tile extent) of each dimension.
        self.schema
            .domain
            .dimensions
            .iter()
            .map(|d| {
                let dt = Datatype::from_value(crate::inspect::dimension_datatype(&self.schema, d));
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

    fn fragment_ned(&self, f: &Fragment) -> Option<Vec<(i128, i128)>> {
        let ned = f.non_empty_domain();
        ned.as_array()?
            .iter()
            .map(|r| {
                let lo = r[0]
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| r[0].as_u64().map(i128::from))?;
                let hi = r[1]
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| r[1].as_u64().map(i128::from))?;
                Some((lo, hi))
            })
            .collect()
    }

    fn read_dense(&self, q: &Query) -> Result<Cells> {
        let (dims, attrs) = self.fields(q)?;
        let ranges = self.dim_ranges()?;
        let neds: Vec<Vec<(i128, i128)>> = self
            .fragments
            .iter()
            .map(|f| {
                self.fragment_ned(f)
                    .filter(|ned| ned.len() == ranges.len())
                    .ok_or_else(|| Error::Unsupported {
                        path: f.path.clone(),
                        what: "non-empty domain".into(),
                    })
            })
            .collect::<Result<_>>()?;
        // The region: the subarray, else the union box of the fragments.
        let nd = ranges.len();
        let mut region: Vec<(i128, i128)> = Vec::with_capacity(nd);
        for d in 0..nd {
            let from_q = q
                .subarray
                .as_ref()
                .and_then(|s| s.get(d).copied().flatten());
            let r = match from_q {
                Some(r) => r,
                None if neds.is_empty() => (0, -1),
                None => (
                    neds.iter().map(|n| n[d].0).min().unwrap(),
                    neds.iter().map(|n| n[d].1).max().unwrap(),
                ),
            };
            region.push(r);
        }
        let extent: Vec<i128> = region.iter().map(|(l, h)| (h - l + 1).max(0)).collect();
        // The result takes at least a cell's bytes (or its fill value's) and
        // an `Option<Vec<u8>>` per field and cell: a region from damaged
        // non-empty domains must not allocate past the limit (nor overflow
        // counting its cells).
        let fill_len = |f: &FieldInfo| {
            self.schema
                .attributes
                .iter()
                .find(|x| x.name == f.name.as_bytes())
                .and_then(|x| x.fill_value.as_ref())
                .map_or(0, |v| v.len() as u64)
        };
        let per_cell: u64 = dims
            .iter()
            .chain(&attrs)
            .map(|f| {
                let bytes = f.cell_size().max(fill_len(f));
                bytes.saturating_add(std::mem::size_of::<Option<Vec<u8>>>() as u64)
            })
            .fold(0, u64::saturating_add);
        let limit = self.opts.max_tile_bytes();
        let cells = extent.iter().try_fold(1i128, |a, e| a.checked_mul(*e));
        let n = cells
            .and_then(|c| u64::try_from(c).ok())
            .filter(|c| c.checked_mul(per_cell).is_some_and(|b| b <= limit))
            .and_then(|c| usize::try_from(c).ok());
        let Some(n) = n else {
            let cells = cells.map_or_else(|| "too many".to_string(), |c| c.to_string());
            return Err(Error::Unsupported {
                path: self.dir.root.clone(),
                what: format!(
                    "a dense read of {cells} cells of {per_cell} bytes exceeds the limit of {limit} bytes"
                ),
            });
        };
        // Row-major position of a coordinate inside the region.
        let out_index = |c: &[i128]| -> usize {
            let mut i = 0i128;
            for d in 0..nd {
                i = i * extent[d] + (c[d] - region[d].0);
            }
            i as usize
        };
        let mut columns: Vec<Column> = Vec::new();
        for a in &attrs {
            let spec = self
                .schema
                .attributes
                .iter()
                .find(|x| x.name == a.name.as_bytes())
                .unwrap();
            let fill = spec
                .fill_value
                .clone()
                .unwrap_or_else(|| vec![0; a.cell_size() as usize]);
            let fill_valid = spec.fill_value_validity.unwrap_or(0) != 0 || !a.nullable;
            columns.push(Column {
                field: a.clone(),
                cells: vec![fill_valid.then(|| fill.clone()); n],
            });
        }
        let cell_layout = Layout::from_value(self.schema.cell_order);
        let tile_layout = Layout::from_value(self.schema.tile_order);
        for (fi, frag) in self.fragments.iter().enumerate() {
            let ned = &neds[fi];
            // The box of cells this fragment wrote that the region holds.
            let boxed: Vec<(i128, i128)> = (0..nd)
                .map(|d| (ned[d].0.max(region[d].0), ned[d].1.min(region[d].1)))
                .collect();
            if boxed.iter().any(|(l, h)| l > h) {
                continue;
            }
            // The fragment's tiles: the space tiles its domain touches, in tile order.
            let t_lo: Vec<i128> = (0..nd)
                .map(|d| (ned[d].0 - ranges[d].1).div_euclid(ranges[d].3))
                .collect();
            let t_hi: Vec<i128> = (0..nd)
                .map(|d| (ned[d].1 - ranges[d].1).div_euclid(ranges[d].3))
                .collect();
            let t_n: Vec<i128> = (0..nd).map(|d| t_hi[d] - t_lo[d] + 1).collect();
            let ext: Vec<i128> = ranges.iter().map(|r| r.3).collect();
            // Checked: tile extents and domains come from the files.
            let cells_per_tile = ext.iter().try_fold(1i128, |a, e| a.checked_mul(*e));
            let order = |idx: &[i128], sizes: &[i128], layout: Option<Layout>| -> Option<i128> {
                let step = |i: i128, d: usize| i.checked_mul(sizes[d])?.checked_add(idx[d]);
                if layout == Some(Layout::ColMajor) {
                    (0..nd).rev().try_fold(0i128, step)
                } else {
                    (0..nd).try_fold(0i128, step)
                }
            };
            // Each fragment is read with the schema it names (schema
            // evolution); an attribute it does not have keeps the fill value.
            let datas: Vec<Option<FieldData>> = attrs
                .iter()
                .map(|a| match FieldInfo::lookup(&frag.schema, &a.name) {
                    Some(fa) => read_checked(frag, &fa, &self.opts, None).map(Some),
                    None => Ok(None),
                })
                .collect::<Result<_>>()?;
            let mut c: Vec<i128> = boxed.iter().map(|b| b.0).collect();
            loop {
                let tile: Vec<i128> = (0..nd)
                    .map(|d| (c[d] - ranges[d].1).div_euclid(ext[d]) - t_lo[d])
                    .collect();
                let within: Vec<i128> = (0..nd)
                    .map(|d| (c[d] - ranges[d].1).rem_euclid(ext[d]))
                    .collect();
                let cell = order(&tile, &t_n, tile_layout)
                    .zip(cells_per_tile)
                    .and_then(|(t, per)| t.checked_mul(per))
                    .zip(order(&within, &ext, cell_layout))
                    .and_then(|(t, w)| t.checked_add(w))
                    .and_then(|c| usize::try_from(c).ok())
                    .unwrap_or(usize::MAX);
                let oi = out_index(&c);
                for (col, data) in columns.iter_mut().zip(&datas) {
                    let Some(data) = data else { continue };
                    let cs = col.field.cell_size();
                    let i = cell;
                    if i >= data.len(cs) {
                        return Err(Error::decode(
                            &frag.path,
                            0,
                            "Tile",
                            "",
                            format!("{} holds fewer cells than its domain needs", col.field.name),
                        ));
                    }
                    let valid = data
                        .validity
                        .as_ref()
                        .is_none_or(|v| v.get(i).is_some_and(|b| *b != 0));
                    col.cells[oi] = valid.then(|| data.cell(i, cs).to_vec());
                }
                if !next_coordinate(&mut c, &boxed) {
                    break;
                }
            }
        }
        // Coordinates of every cell of the region, row-major.
        let mut dim_cols: Vec<Column> = dims
            .iter()
            .map(|f| Column {
                field: f.clone(),
                cells: Vec::with_capacity(n),
            })
            .collect();
        if n > 0 {
            let mut c: Vec<i128> = region.iter().map(|r| r.0).collect();
            loop {
                for (d, col) in dim_cols.iter_mut().enumerate() {
                    col.cells.push(Some(int_bytes(col.field.datatype, c[d])));
                }
                if !next_coordinate(&mut c, &region) {
                    break;
                }
            }
        }
        dim_cols.extend(columns);
        Ok(Cells {
            columns: dim_cols,
            len: n,
        })
    }

    fn deletes(&self) -> Result<Vec<(u64, String, ConditionNode)>> {
        let mut out = Vec::new();
        for d in &self.dir.deletes {
            let file = MappedFile::open(&d.path)?;
            let tile = read_generic_tile(&file, 0, &self.opts)?;
            let node: ConditionNode = decode_all(&tile.data, &d.path, 0, (0,))?;
            let name = d
                .path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.push((d.name.t1, name, node));
        }
        Ok(out)
    }

    fn read_sparse(&self, q: &Query) -> Result<Cells> {
        let (dims, attrs) = self.fields(q)?;
        let deletes = self.deletes()?;
        let allows_dups = self.schema.allows_dups.unwrap_or(0) != 0;
        // Every field a delete condition names must be read too.
        struct Frag {
            dims: Vec<FieldData>,
            attrs: Vec<Option<FieldData>>,
            timestamps: Option<Vec<u64>>,
            processed: Vec<String>,
            t1: u64,
        }
        let mut frags = Vec::new();
        let all_attrs: Vec<FieldInfo> = self
            .schema
            .attributes
            .iter()
            .filter_map(|a| FieldInfo::lookup(&self.schema, &String::from_utf8_lossy(&a.name)))
            .collect();
        for f in &self.fragments {
            // Every field must hold as many cells as the first dimension.
            // A field's place in the fragment's files is in the schema the
            // fragment names (a later schema may have added attributes).
            let mut n = None;
            let mut dims_d = Vec::with_capacity(dims.len());
            if f.version() < 5 {
                // One zipped `__coords.tdb` holds every dimension.
                dims_d = read_zipped_coords(f, &self.opts)?;
                n = dims_d.first().map(|d| d.len(dims[0].cell_size()));
            }
            for d in dims.iter().skip(dims_d.len()) {
                let d = FieldInfo::lookup(&f.schema, &d.name)
                    .filter(|x| x.is_dimension)
                    .ok_or_else(|| Error::Unsupported {
                        path: f.path.clone(),
                        what: format!("the fragment's schema has no dimension {:?}", d.name),
                    })?;
                let data = read_checked(f, &d, &self.opts, n)?;
                n = Some(data.len(d.cell_size()));
                dims_d.push(data);
            }
            let attrs_d = all_attrs
                .iter()
                .map(|a| match FieldInfo::lookup(&f.schema, &a.name) {
                    Some(fa) => read_checked(f, &fa, &self.opts, n).map(Some),
                    None => Ok(None),
                })
                .collect::<Result<Vec<_>>>()?;
            let has_timestamps = matches!(
                &f.metadata,
                Metadata::Footer(footer) if footer.includes_timestamps == Some(1)
            );
            let timestamps = if has_timestamps {
                let t = FieldInfo::timestamps(&f.schema);
                let d = read_checked(f, &t, &self.opts, n)?;
                Some(
                    d.values
                        .chunks_exact(8)
                        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                        .collect(),
                )
            } else {
                None
            };
            let processed = f.processed_conditions(&self.opts)?;
            frags.push(Frag {
                dims: dims_d,
                attrs: attrs_d,
                timestamps,
                processed,
                t1: f.name.t1,
            });
        }
        // (fragment, cell) of every surviving cell.
        let mut picked: Vec<(usize, usize)> = Vec::new();
        for (fi, fr) in frags.iter().enumerate() {
            let n = fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size()));
            'cell: for i in 0..n {
                if let Some(sub) = &q.subarray {
                    for (d, r) in sub.iter().enumerate() {
                        if let Some((lo, hi)) = r {
                            let v =
                                int_of(dims[d].datatype, fr.dims[d].cell(i, dims[d].cell_size()));
                            if v.is_none_or(|v| v < *lo || v > *hi) {
                                continue 'cell;
                            }
                        }
                    }
                }
                let ts = fr.timestamps.as_ref().map_or(fr.t1, |t| t[i]);
                for (dt, name, cond) in &deletes {
                    if ts > *dt || fr.processed.contains(name) {
                        continue;
                    }
                    let value = |field: &[u8]| -> Option<CellValue> {
                        if let Some(d) = dims.iter().position(|x| x.name.as_bytes() == field) {
                            return Some(CellValue::Bytes(
                                dims[d].datatype,
                                fr.dims[d].cell(i, dims[d].cell_size()),
                            ));
                        }
                        let a = all_attrs.iter().position(|x| x.name.as_bytes() == field)?;
                        let data = fr.attrs[a].as_ref()?;
                        if data.validity.as_ref().is_some_and(|v| v[i] == 0) {
                            return Some(CellValue::Null);
                        }
                        Some(CellValue::Bytes(
                            all_attrs[a].datatype,
                            data.cell(i, all_attrs[a].cell_size()),
                        ))
                    };
                    // The stored condition is the negation of the delete's.
                    if !holds(cond, &value) {
                        continue 'cell;
                    }
                }
                picked.push((fi, i));
            }
        }
        let coord_key = |(fi, i): (usize, usize)| -> Vec<u8> {
            let mut k = Vec::new();
            for (d, f) in dims.iter().enumerate() {
                let c = frags[fi].dims[d].cell(i, f.cell_size());
                k.extend_from_slice(&(c.len() as u64).to_le_bytes());
                k.extend_from_slice(c);
            }
            k
        };
        if !allows_dups {
            // The newest write of each coordinate wins.
            let mut best: HashMap<Vec<u8>, (u64, usize, usize)> = HashMap::new();
            for &(fi, i) in &picked {
                let ts = frags[fi].timestamps.as_ref().map_or(frags[fi].t1, |t| t[i]);
                let e = best.entry(coord_key((fi, i))).or_insert((ts, fi, i));
                if (ts, fi, i) > *e {
                    *e = (ts, fi, i);
                }
            }
            picked.retain(|&(fi, i)| {
                let b = best[&coord_key((fi, i))];
                (b.1, b.2) == (fi, i)
            });
        }
        // Row-major order of the coordinates (the order `export` prints).
        let sort_key = |&(fi, i): &(usize, usize)| -> Vec<Value> {
            dims.iter()
                .enumerate()
                .map(|(d, f)| {
                    let c = frags[fi].dims[d].cell(i, f.cell_size());
                    if value::is_text(f.datatype) {
                        json!(c.iter().map(|b| *b as u64).collect::<Vec<_>>())
                    } else {
                        value::cell(f.datatype, c)
                    }
                })
                .collect()
        };
        picked.sort_by(|a, b| cmp_values(&sort_key(a), &sort_key(b)));
        let mut columns = Vec::new();
        for (d, f) in dims.iter().enumerate() {
            columns.push(Column {
                field: f.clone(),
                cells: picked
                    .iter()
                    .map(|&(fi, i)| Some(frags[fi].dims[d].cell(i, f.cell_size()).to_vec()))
                    .collect(),
            });
        }
        for a in &attrs {
            let ai = all_attrs.iter().position(|x| x.name == a.name).unwrap();
            let spec = &self.schema.attributes[ai];
            let fill = (!a.nullable || spec.fill_value_validity.unwrap_or(0) != 0).then(|| {
                spec.fill_value
                    .clone()
                    .unwrap_or_else(|| vec![0; a.cell_size() as usize])
            });
            // Cells of fragments written before the attribute existed take
            // its fill value, whose size comes from the schema.
            let filled = picked
                .iter()
                .filter(|&&(fi, _)| frags[fi].attrs[ai].is_none())
                .count() as u64;
            let fill_bytes = fill.as_ref().map_or(0, |f| f.len() as u64);
            if filled.saturating_mul(fill_bytes) > self.opts.max_tile_bytes() {
                return Err(Error::Unsupported {
                    path: self.dir.root.clone(),
                    what: format!(
                        "{filled} fill values of {fill_bytes} bytes for {:?} exceed the limit",
                        a.name
                    ),
                });
            }
            let cells = picked
                .iter()
                .map(|&(fi, i)| match &frags[fi].attrs[ai] {
                    Some(data) => {
                        let valid = data.validity.as_ref().is_none_or(|v| v[i] != 0);
                        valid.then(|| data.cell(i, a.cell_size()).to_vec())
                    }
                    // Written before the attribute was added: its fill value.
                    None => fill.clone(),
                })
                .collect();
            columns.push(Column {
                field: a.clone(),
                cells,
            });
        }
        Ok(Cells {
            len: picked.len(),
            columns,
        })
    }
}

fn cmp_values(a: &[Value], b: &[Value]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x, y) {
            (Value::Number(p), Value::Number(q)) => {
                match (p.as_i64(), q.as_i64(), p.as_u64(), q.as_u64()) {
                    (Some(p), Some(q), _, _) => p.cmp(&q),
                    (_, _, Some(p), Some(q)) => p.cmp(&q),
                    _ => p
                        .as_f64()
                        .partial_cmp(&q.as_f64())
                        .unwrap_or(std::cmp::Ordering::Equal),
                }
            }
            (Value::Array(p), Value::Array(q)) => cmp_values(p, q).then(p.len().cmp(&q.len())),
            _ => x.to_string().cmp(&y.to_string()),
        };
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

/// Steps `c` to the next coordinate of the box in row-major order; false
/// after the last.
fn next_coordinate(c: &mut [i128], bounds: &[(i128, i128)]) -> bool {
    for d in (0..c.len()).rev() {
        if c[d] < bounds[d].1 {
            c[d] += 1;
            return true;
        }
        c[d] = bounds[d].0;
    }
    false
}

fn int_bytes(dt: Datatype, v: i128) -> Vec<u8> {
    let w = dt.size() as usize;
    v.to_le_bytes()[..w].to_vec()
}

impl ArrayReader {
    /// Reads every tile of the chosen attributes (default: all) of every
    /// fragment through the filter pipelines, in parallel, and sums up cells,
    /// bytes and a checksum of the values: the throughput probe behind
    /// `scan`. Fragments are not merged (overwritten cells count too).
    pub fn scan(&self, attributes: Option<&[String]>) -> Result<super::field::ScanTotals> {
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
