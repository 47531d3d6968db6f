//! Random small schemas (dense and sparse, several datatypes, var-sized and
//! nullable attributes, a few filters, every cell and tile order) and
//! random cells, written by the crate and read back by the engine and by
//! this crate. Few cases: the engine runs once per case.

use crate::write_support;

use proptest::prelude::*;
use serde_json::{json, Value};
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::model::value;
use tiledb_codec::raw::write::{create_array, Column, FragmentWriter, WriteOptions};
use write_support::{diff_cells, engine_cells, our_cells, TempDir};

#[derive(Debug, Clone)]
struct Dim {
    datatype: &'static str,
    lo: i64,
    span: i64,
    extent: i64,
}

#[derive(Debug, Clone)]
struct Attr {
    datatype: &'static str,
    /// 0: var-sized.
    cell_val_num: u32,
    nullable: bool,
    filters: Value,
}

#[derive(Debug, Clone)]
struct Case {
    dense: bool,
    dims: Vec<Dim>,
    attrs: Vec<Attr>,
    tile_order: &'static str,
    cell_order: &'static str,
    capacity: u64,
    dups: bool,
    /// Sparse: coordinates, as indices into each dimension's range.
    coords: Vec<Vec<i64>>,
    /// Dense: the rectangle, as offsets into each dimension's range.
    rect: Vec<(i64, i64)>,
    /// Seeds of the cell values.
    seeds: Vec<u64>,
}

fn dense_dim() -> impl Strategy<Value = Dim> {
    (
        prop::sample::select(vec![
            "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT32", "UINT64",
        ]),
        0i64..20,
        1i64..10,
    )
        .prop_flat_map(|(dt, lo, span)| {
            (1i64..=span).prop_map(move |extent| Dim {
                datatype: dt,
                // TileDB-Py cannot slice dense arrays at negative
                // coordinates (index_domain_subarray), so the engine's read
                // in engine_account.py would fail: non-negative domains.
                lo,
                span,
                extent,
            })
        })
}

fn sparse_dim() -> impl Strategy<Value = Dim> {
    (
        prop::sample::select(vec![
            "INT32",
            "INT64",
            "UINT16",
            "FLOAT64",
            "STRING_ASCII",
            "DATETIME_DAY",
        ]),
        0i64..20,
        1i64..12,
    )
        .prop_flat_map(|(dt, lo, span)| {
            (1i64..=span).prop_map(move |extent| Dim {
                datatype: dt,
                lo,
                span,
                extent,
            })
        })
}

fn attr() -> impl Strategy<Value = Attr> {
    let types = vec![
        ("INT8", 1),
        ("UINT16", 1),
        ("INT32", 1),
        ("INT64", 1),
        ("FLOAT32", 1),
        ("FLOAT64", 1),
        ("BOOL", 1),
        ("DATETIME_MS", 1),
        ("INT32", 2),
        ("CHAR", 3),
        ("INT16", 0),
        ("CHAR", 0),
        ("STRING_ASCII", 0),
        ("STRING_UTF8", 0),
        ("BLOB", 0),
    ];
    (prop::sample::select(types), any::<bool>(), 0usize..6).prop_map(|((dt, n), nullable, f)| {
        let int = !matches!(
            dt,
            "FLOAT32" | "FLOAT64" | "CHAR" | "STRING_ASCII" | "STRING_UTF8" | "BLOB"
        );
        let filters = match (f, int) {
            (0, _) => json!([]),
            (1, _) => json!([{"type": "ZSTD", "level": 3}]),
            (2, _) => json!([{"type": "GZIP"}]),
            (3, _) => json!([{"type": "BYTESHUFFLE"}, {"type": "LZ4"}]),
            (4, true) => json!([{"type": "BIT_WIDTH_REDUCTION", "max_window_size": 64}]),
            (4, false) => json!([{"type": "BZIP2"}]),
            // The engine cannot read an empty var-sized tile through DELTA,
            // not even one it wrote itself ("Write would overflow buffer"):
            // DELTA only for fixed-size cells.
            (_, true) if n > 0 => json!([{"type": "DELTA"}, {"type": "ZSTD"}]),
            (_, true) => json!([{"type": "ZSTD", "level": -1}]),
            (_, false) => json!([{"type": "CHECKSUM_SHA256"}, {"type": "ZSTD"}]),
        };
        Attr {
            datatype: dt,
            cell_val_num: n,
            nullable,
            filters,
        }
    })
}

fn case() -> impl Strategy<Value = Case> {
    any::<bool>()
        .prop_flat_map(|dense| {
            let dims = if dense {
                (1usize..=3)
                    .prop_flat_map(|n| prop::collection::vec(dense_dim(), n))
                    .prop_map(|mut v| {
                        // Dense dimensions share one datatype.
                        let dt = v[0].datatype;
                        let lo0 = v[0].lo;
                        for d in &mut v {
                            d.datatype = dt;
                            if dt.starts_with("UINT") {
                                d.lo = d.lo.max(0);
                            }
                            let _ = lo0;
                        }
                        v
                    })
                    .boxed()
            } else {
                prop::collection::vec(sparse_dim(), 1..=3).boxed()
            };
            let orders = if dense {
                prop::sample::select(vec!["row-major", "col-major"]).boxed()
            } else {
                prop::sample::select(vec!["row-major", "col-major", "hilbert"]).boxed()
            };
            (
                Just(dense),
                dims,
                prop::collection::vec(attr(), 1..=3),
                prop::sample::select(vec!["row-major", "col-major"]),
                orders,
                1u64..6,
                any::<bool>(),
            )
        })
        .prop_flat_map(
            |(dense, dims, attrs, tile_order, cell_order, capacity, dups)| {
                let nd = dims.len();
                let spans: Vec<i64> = dims.iter().map(|d| d.span).collect();
                let rect = spans
                    .iter()
                    .map(|s| {
                        let s = *s;
                        (0..s).prop_flat_map(move |a| (Just(a), a..s))
                    })
                    .collect::<Vec<_>>();
                let coords =
                    prop::collection::vec(spans.iter().map(|s| 0..*s).collect::<Vec<_>>(), 0..25);
                (
                    Just((
                        dense,
                        dims,
                        attrs,
                        tile_order,
                        cell_order,
                        capacity,
                        dups && !dense,
                    )),
                    rect,
                    coords,
                    prop::collection::vec(any::<u64>(), 64),
                    Just(nd),
                )
            },
        )
        .prop_map(
            |(
                (dense, dims, mut attrs, tile_order, cell_order, capacity, dups),
                rect,
                coords,
                seeds,
                _,
            )| {
                // engine_account.py reads fixed-size multi-byte CHAR cells of
                // a dense array of 2+ dimensions with `len(arr)` (the first
                // axis) and loses cells: keep those out.
                if dense && dims.len() > 1 {
                    for a in &mut attrs {
                        if a.datatype == "CHAR" && a.cell_val_num > 1 {
                            a.datatype = "INT32";
                            a.cell_val_num = 2;
                        }
                    }
                }
                Case {
                    dense,
                    dims,
                    attrs,
                    tile_order,
                    cell_order,
                    capacity,
                    dups,
                    coords,
                    rect,
                    seeds,
                }
            },
        )
}

fn schema(c: &Case) -> Value {
    let dims: Vec<Value> = c
        .dims
        .iter()
        .enumerate()
        .map(|(i, d)| match d.datatype {
            "STRING_ASCII" => json!({"name": format!("d{i}"), "datatype": "STRING_ASCII", "cell_val_num": "var", "domain": null, "tile_extent": null}),
            "FLOAT64" => json!({"name": format!("d{i}"), "datatype": "FLOAT64",
                "domain": [d.lo as f64, (d.lo + d.span) as f64], "tile_extent": d.extent as f64 / 2.0}),
            dt => json!({"name": format!("d{i}"), "datatype": dt,
                "domain": [d.lo, d.lo + d.span - 1], "tile_extent": d.extent}),
        })
        .collect();
    let attrs: Vec<Value> = c
        .attrs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            json!({"name": format!("a{i}"), "datatype": a.datatype,
                "cell_val_num": if a.cell_val_num == 0 { json!("var") } else { json!(a.cell_val_num) },
                "nullable": a.nullable, "filters": a.filters})
        })
        .collect();
    json!({
        "array_type": if c.dense { "dense" } else { "sparse" },
        "tile_order": c.tile_order,
        "cell_order": c.cell_order,
        "capacity": c.capacity,
        "allows_duplicates": c.dups,
        "dimensions": dims,
        "attributes": attrs,
    })
}

/// A little generator of values from a seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn bytes(&mut self, n: usize, text: bool) -> Vec<u8> {
        (0..n)
            .map(|_| {
                let b = self.next() as u8;
                if text {
                    b'a' + b % 26
                } else {
                    b
                }
            })
            .collect()
    }
}

fn dt(name: &str) -> Datatype {
    *Datatype::ALL.iter().find(|d| d.name() == name).unwrap()
}

/// One value of an attribute: its bytes (None: null).
fn attr_value(a: &Attr, g: &mut Gen) -> Option<Vec<u8>> {
    if a.nullable && g.next().is_multiple_of(4) {
        return None;
    }
    let d = dt(a.datatype);
    let text = matches!(a.datatype, "CHAR" | "STRING_ASCII" | "STRING_UTF8");
    let n = if a.cell_val_num == 0 {
        (g.next() % 5) as usize
    } else {
        a.cell_val_num as usize
    };
    let mut out = Vec::new();
    for _ in 0..n {
        match a.datatype {
            "FLOAT32" => {
                out.extend_from_slice(&((g.next() % 2000) as f32 / 8.0 - 100.0).to_le_bytes())
            }
            "FLOAT64" => {
                out.extend_from_slice(&((g.next() % 2000) as f64 / 16.0 - 50.0).to_le_bytes())
            }
            "BOOL" => out.push((g.next() % 2) as u8),
            "STRING_UTF8" => {
                out.extend_from_slice(["é", "a", "ß", "z"][(g.next() % 4) as usize].as_bytes())
            }
            _ => out.extend(g.bytes(d.size() as usize, text)),
        }
    }
    Some(out)
}

fn json_of(d: Datatype, var: bool, b: &Option<Vec<u8>>) -> Value {
    match b {
        None => Value::Null,
        Some(b) if var && !value::is_text(d) => Value::Array(value::values(d, b)),
        Some(b) => value::cell(d, b),
    }
}

fn dim_value(d: &Dim, i: i64) -> (Vec<u8>, Value) {
    match d.datatype {
        "STRING_ASCII" => {
            let s = format!(
                "{}{}",
                (b'a' + (i % 26) as u8) as char,
                "x".repeat((i / 3) as usize)
            );
            (s.clone().into_bytes(), json!(s))
        }
        "FLOAT64" => {
            let v = d.lo as f64 + i as f64 * (d.span as f64 / 12.0);
            (v.to_le_bytes().to_vec(), json!(v))
        }
        name => {
            let dd = dt(name);
            let v = d.lo + i;
            let b = (v as i128).to_le_bytes()[..dd.size() as usize].to_vec();
            (b.clone(), value::cell(dd, &b))
        }
    }
}

/// The coordinates of the case's cells: a dense case's rectangle in
/// row-major order, a sparse case's points.
fn cell_coords(c: &Case) -> Vec<Vec<(Vec<u8>, Value)>> {
    let mut coords: Vec<Vec<(Vec<u8>, Value)>> = Vec::new();
    if c.dense {
        // Row-major over the rectangle.
        let mut cur: Vec<i64> = c.rect.iter().map(|r| r.0).collect();
        loop {
            coords.push(
                c.dims
                    .iter()
                    .zip(&cur)
                    .map(|(d, i)| dim_value(d, *i))
                    .collect(),
            );
            let mut k = cur.len();
            let mut done = true;
            while k > 0 {
                k -= 1;
                if cur[k] < c.rect[k].1 {
                    cur[k] += 1;
                    done = false;
                    break;
                }
                cur[k] = c.rect[k].0;
            }
            if done {
                break;
            }
        }
    } else {
        for p in &c.coords {
            coords.push(
                c.dims
                    .iter()
                    .zip(p)
                    .map(|(d, i)| dim_value(d, *i))
                    .collect(),
            );
        }
    }
    coords
}

/// Writes the case; returns the rows the engine should read.
fn write_case(c: &Case, path: &std::path::Path) -> Vec<Value> {
    create_array(path, &schema(c)).unwrap();
    let mut g = Gen(c.seeds[0]);
    let coords = cell_coords(c);
    let n_cells = coords.len();
    let values: Vec<Vec<Option<Vec<u8>>>> = (0..n_cells)
        .map(|_| c.attrs.iter().map(|a| attr_value(a, &mut g)).collect())
        .collect();
    let mut cols = Vec::new();
    for (j, a) in c.attrs.iter().enumerate() {
        let d = dt(a.datatype);
        let w = d.size() as usize * a.cell_val_num.max(1) as usize;
        let cells: Vec<Vec<u8>> = values
            .iter()
            .map(|v| {
                v[j].clone().unwrap_or_else(|| {
                    if a.cell_val_num == 0 {
                        Vec::new()
                    } else {
                        vec![0; w]
                    }
                })
            })
            .collect();
        let col = if a.cell_val_num == 0 {
            Column::from_values(format!("a{j}"), &cells)
        } else {
            Column::fixed(format!("a{j}"), cells.concat())
        };
        let col = if a.nullable {
            col.with_validity(values.iter().map(|v| u8::from(v[j].is_some())).collect())
        } else {
            col
        };
        cols.push(col);
    }
    if !c.dense {
        for (i, d) in c.dims.iter().enumerate() {
            let cells: Vec<Vec<u8>> = coords.iter().map(|p| p[i].0.clone()).collect();
            cols.push(if d.datatype == "STRING_ASCII" {
                Column::from_values(format!("d{i}"), &cells)
            } else {
                Column::fixed(format!("d{i}"), cells.concat())
            });
        }
    }
    let opts = WriteOptions::default()
        .with_sort_memory(64)
        .with_pending_memory(64)
        .with_keep_last_duplicate(true);
    let mut rows: Vec<(String, Value)> = Vec::new();
    for (i, p) in coords.iter().enumerate() {
        let mut m = serde_json::Map::new();
        for (k, (_, v)) in p.iter().enumerate() {
            m.insert(format!("d{k}"), v.clone());
        }
        for (j, a) in c.attrs.iter().enumerate() {
            m.insert(
                format!("a{j}"),
                json_of(dt(a.datatype), a.cell_val_num == 0, &values[i][j]),
            );
        }
        let key: String = p.iter().map(|(b, _)| format!("{b:?}")).collect();
        rows.push((key, Value::Object(m)));
    }
    if n_cells > 0 {
        let mut w = if c.dense {
            let rect: Vec<(i128, i128)> = c
                .dims
                .iter()
                .zip(&c.rect)
                .map(|(d, r)| (i128::from(d.lo + r.0), i128::from(d.lo + r.1)))
                .collect();
            FragmentWriter::dense(path, &rect, opts).unwrap()
        } else {
            FragmentWriter::sparse(path, opts).unwrap()
        };
        // In two batches.
        let half = n_cells / 2;
        let split = |c: &Column, from: usize, to: usize| -> Column {
            match &c.offsets {
                Some(o) => {
                    let s = o[from.min(o.len())] as usize;
                    let e = if to >= o.len() {
                        c.data.len()
                    } else {
                        o[to] as usize
                    };
                    let offs: Vec<u64> = o[from..to].iter().map(|x| x - s as u64).collect();
                    {
                        let mut lit = Column::default();
                        lit.name = c.name.clone();
                        lit.data = c.data[s..e].to_vec();
                        lit.offsets = Some(offs);
                        lit.validity = c.validity.as_ref().map(|v| v[from..to].to_vec());
                        lit
                    }
                }
                None => {
                    let w = c.data.len() / n_cells;
                    {
                        let mut lit = Column::default();
                        lit.name = c.name.clone();
                        lit.data = c.data[from * w..to * w].to_vec();
                        lit.offsets = None;
                        lit.validity = c.validity.as_ref().map(|v| v[from..to].to_vec());
                        lit
                    }
                }
            }
        };
        for (a, b) in [(0, half), (half, n_cells)] {
            let part: Vec<Column> = cols.iter().map(|c| split(c, a, b)).collect();
            w.write(&part).unwrap();
        }
        w.finish().unwrap();
    }
    if !c.dups {
        // The last cell written at a coordinate wins.
        let mut seen = std::collections::HashMap::new();
        for (i, (k, _)) in rows.iter().enumerate() {
            seen.insert(k.clone(), i);
        }
        rows = rows
            .into_iter()
            .enumerate()
            .filter(|(i, (k, _))| seen[k] == *i)
            .map(|(_, r)| r)
            .collect();
    }
    rows.into_iter().map(|(_, v)| v).collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        // PROPTEST_CASES=N for a longer run.
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(24),
        max_shrink_iters: 16,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_arrays_read_back_in_the_engine(c in case()) {
        let tmp = TempDir::new("write-prop");
        let path = tmp.join("a");
        let expected = write_case(&c, &path);
        let ours = our_cells(&path).map_err(|e| TestCaseError::fail(format!("our reader: {e}")))?;
        if let Some(d) = diff_cells(ours, expected.clone()) {
            return Err(TestCaseError::fail(format!("our reader: {d}")));
        }
        // With KEEP_TEMP set, the array of a failing case stays for a look.
        let keep = |what: String| TestCaseError::fail(format!("{what} ({})", path.display()));
        let engine = engine_cells(&path).map_err(|e| keep(format!("engine: {e}")))?;
        if let Some(d) = diff_cells(engine, expected) {
            return Err(keep(format!("engine: {d}")));
        }
    }
}
