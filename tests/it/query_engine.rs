//! Property tests of the read path against the engine: random typed ranges
//! (multi-ranges, points) on every dimension datatype of the fixtures,
//! random query conditions with literals drawn from the arrays' own values,
//! aggregates, and the orders of sparse reads. Our answer comes from the
//! command line (`export --range --where --order`, `aggregate`); the
//! engine's from tests/engine/engine_queries.py, every query of a property in
//! one Python process.
//!
//! Cases are drawn with proptest strategies from a deterministic runner
//! (`QUERY_ENGINE_CASES` cases per fixture and property, 8 unless set), then
//! answered by the engine in one batch: there is no shrinking, a failure
//! prints the fixture and the whole query instead.

use crate::common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRng, TestRunner};
use serde_json::{json, Value};

/// Fixtures the properties run on (encrypted, group and odd ones aside).
const FIXTURES: &[&str] = &[
    "v22/sparse_int_2d",
    "v22/dense_int_2d",
    "v22/dense_int_1d",
    "v22/nullable_var_sparse",
    "v22/dense_var_nullable",
    "v22/enumerations",
    "v22/sparse_strdim",
    "v22/sparse_float_dims",
    "v22/sparse_datetime_dim",
    "v22/types_numeric",
    "v22/types_strings",
    "v22/types_datetime",
    "v22/sparse_dups_2d",
    "v22/sparse_hilbert",
    "v22/dense_float_2d_colmajor",
    "v22/sparse_delete",
    "v22/consolidated_fragments",
    "v16/sparse_int_2d",
    "v16/dense_var_nullable",
    "v20/enumerations",
    "v21/nullable_var_sparse",
    "v21/sparse_strdim",
];

fn cases() -> usize {
    std::env::var("QUERY_ENGINE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8)
}

// ---------------------------------------------------------------------------
// What an array holds

/// A field of a fixture, as `inspect --json` describes it.
#[derive(Debug, Clone)]
struct Field {
    name: String,
    datatype: String,
    /// `None`: var-sized.
    cell_val_num: Option<u64>,
    nullable: bool,
    /// The values of the enumeration of an enumerated attribute.
    labels: Option<Vec<Value>>,
    /// Dimensions: the domain (fixed-size dimensions).
    domain: Option<(Value, Value)>,
}

impl Field {
    fn is_int(&self) -> bool {
        let d = self.datatype.as_str();
        d.starts_with("INT")
            || d.starts_with("UINT")
            || d.starts_with("DATETIME_")
            || d.starts_with("TIME_")
    }
    fn is_float(&self) -> bool {
        self.datatype.starts_with("FLOAT")
    }
    fn is_string(&self) -> bool {
        matches!(
            self.datatype.as_str(),
            "STRING_ASCII" | "STRING_UTF8" | "CHAR"
        )
    }
    fn is_time(&self) -> bool {
        self.datatype.starts_with("DATETIME_") || self.datatype.starts_with("TIME_")
    }
}

/// A fixture: its schema and every cell (our full read, which the
/// `full_reads_match_the_engine` test holds to the engine's).
#[derive(Debug, Clone)]
struct Array {
    id: String,
    path: PathBuf,
    sparse: bool,
    dups: bool,
    dims: Vec<Field>,
    attrs: Vec<Field>,
    cells: Vec<Value>,
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tiledb-codec")
}

fn load(id: &str) -> Array {
    let path = common::root().join("tests/fixtures").join(id);
    let out = Command::new(bin())
        .args(["inspect", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "inspect {id}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["schema"];
    let enums: BTreeMap<String, Vec<Value>> = s["enumerations"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["values"].as_array().cloned().unwrap_or_default(),
            )
        })
        .collect();
    let field = |f: &Value| Field {
        name: f["name"].as_str().unwrap().to_string(),
        datatype: f["datatype"].as_str().unwrap().to_string(),
        cell_val_num: f["cell_val_num"].as_u64(),
        nullable: f["nullable"].as_bool().unwrap_or(false),
        labels: f["enumeration"]
            .as_str()
            .and_then(|e| enums.get(e).cloned()),
        domain: f["domain"]
            .as_array()
            .filter(|d| d.len() == 2)
            .map(|d| (d[0].clone(), d[1].clone())),
    };
    let out = Command::new(bin())
        .arg("export")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "export {id}");
    let cells = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Array {
        id: id.to_string(),
        path,
        sparse: s["array_type"] == "sparse",
        dups: s["allows_duplicates"] == true,
        dims: s["dimensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(field)
            .collect(),
        attrs: s["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .map(field)
            .collect(),
        cells,
    }
}

impl Array {
    /// The distinct non-null values of a field, sorted.
    fn values(&self, f: &Field) -> Vec<Value> {
        let mut v: Vec<Value> = self
            .cells
            .iter()
            .map(|c| c[&f.name].clone())
            .filter(|v| !v.is_null())
            .collect();
        v.sort_by(cmp_values);
        v.dedup();
        v
    }
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn cmp_values(a: &Value, b: &Value) -> std::cmp::Ordering {
    // A total order: null, numbers (by value, exact for integers), strings
    // (bytewise), anything else (by its JSON).
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Null => 0,
            Value::Number(_) => 1,
            Value::String(_) => 2,
            _ => 3,
        }
    }
    fn int(v: &Value) -> i128 {
        v.as_i64()
            .map(i128::from)
            .or_else(|| v.as_u64().map(i128::from))
            .unwrap_or(0)
    }
    rank(a).cmp(&rank(b)).then_with(|| match (a, b) {
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Number(_), Value::Number(_)) => num(a)
            .unwrap_or(0.0)
            .total_cmp(&num(b).unwrap_or(0.0))
            .then_with(|| int(a).cmp(&int(b))),
        _ => a.to_string().cmp(&b.to_string()),
    })
}

// ---------------------------------------------------------------------------
// Queries

/// A query condition: our text and an equivalent one the engine takes.
///
/// TileDB-Py 0.36.1 cannot negate everything we can (see `condition`), so
/// the engine is sent our condition with `not` pushed down where it would
/// refuse or crash: by De Morgan over `and`/`or`, `in` and `not in`
/// swapped. This is the engine's own meaning of `not` (TileDB's
/// `get_negated_tree` pushes the negation into the comparisons, so a null
/// cell fails both `n < 3` and `not (n < 3)`); ours keeps the `not`, so our
/// negation of whole subtrees is what is compared.
#[derive(Debug, Clone)]
struct Cond {
    ours: String,
    engine: String,
}

impl Cond {
    /// A condition both sides take as it is.
    fn same(text: &str) -> Cond {
        Cond {
            ours: text.to_string(),
            engine: text.to_string(),
        }
    }
}

/// One query, in the shape engine_queries.py takes.
#[derive(Debug, Clone, Default)]
struct Q {
    /// Per dimension, inclusive ranges (sorted, disjoint).
    ranges: Vec<(String, Vec<(Value, Value)>)>,
    cond: Option<Cond>,
    order: Option<&'static str>,
    attrs: Option<Vec<String>>,
    aggregates: Option<Vec<(String, Option<String>)>>,
}

impl Q {
    fn request(&self, a: &Array) -> Value {
        let ranges: serde_json::Map<String, Value> = self
            .ranges
            .iter()
            .map(|(d, rs)| {
                (
                    d.clone(),
                    json!(rs.iter().map(|(l, h)| json!([l, h])).collect::<Vec<_>>()),
                )
            })
            .collect();
        let mut r = json!({
            "array": a.path,
            "ranges": ranges,
            "cond": self.cond.as_ref().map(|c| &c.engine),
            "attrs": self.attrs,
            "order": self.order,
        });
        if let Some(aggs) = &self.aggregates {
            r["aggregates"] = json!(aggs
                .iter()
                .map(|(op, f)| json!([op, f]))
                .collect::<Vec<_>>());
        }
        r
    }

    /// The query for a failure message: our arguments, and the engine's
    /// condition when it is not ours.
    fn shown(&self) -> String {
        let mut s = format!("{:?}", self.args());
        if let Some(c) = self.cond.as_ref().filter(|c| c.engine != c.ours) {
            s.push_str(&format!(" (the engine's condition: {:?})", c.engine));
        }
        s
    }

    /// Our command line's arguments for the query (after the array).
    fn args(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (d, rs) in &self.ranges {
            for (lo, hi) in rs {
                let lit = |v: &Value| match v {
                    Value::String(s) => serde_json::to_string(s).unwrap(),
                    other => other.to_string(),
                };
                out.push("--range".into());
                out.push(if lo == hi {
                    format!("{d}={}", lit(lo))
                } else {
                    format!("{d}={}:{}", lit(lo), lit(hi))
                });
            }
        }
        if let Some(c) = &self.cond {
            out.push("--where".into());
            out.push(c.ours.clone());
        }
        if let Some(o) = self.order {
            out.push("--order".into());
            out.push(o.into());
        }
        if let Some(a) = &self.attrs {
            out.push("--attrs".into());
            out.push(a.join(","));
        }
        out
    }
}

/// One run of engine_queries.py over `reqs`: its answers (fewer than
/// asked when it crashed) and its exit status.
fn engine_run(reqs: &[Value]) -> (Vec<Value>, std::process::Output) {
    let mut child = Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/engine_queries.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine's python runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(reqs).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let got: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("engine_queries.py prints JSON lines"))
        .collect();
    assert!(
        got.len() == reqs.len() || !out.status.success(),
        "engine_queries.py answered {} of {} requests: {}",
        got.len(),
        reqs.len(),
        String::from_utf8_lossy(&out.stderr)
    );
    (got, out)
}

/// The engine's answers to `reqs`, one per request; a request on which the
/// engine crashed answers `{"crash": ...}` (the rest are asked again).
///
/// TileDB-Py 0.36.1 now and then dies (SIGSEGV) on a request deep in a
/// batch that it answers in a process of its own, every time: seen on
/// `(v <= 1) and (v > 1)` in global order on sparse_datetime_dim and on an
/// aggregate over nullable_var_sparse. So a request the engine crashed on
/// is asked once more, alone, in a new process; only a second crash is
/// the answer.
fn engine(reqs: &[Value]) -> Vec<Value> {
    let mut answers = Vec::new();
    while answers.len() < reqs.len() {
        let rest = &reqs[answers.len()..];
        let (got, _) = engine_run(rest);
        let n = got.len();
        answers.extend(got);
        if n < rest.len() {
            let (mut again, out) = engine_run(&rest[n..=n]);
            answers.push(
                again
                    .pop()
                    .unwrap_or_else(|| json!({"crash": format!("{:?}", out.status)})),
            );
        }
    }
    answers
}

/// Our export of `q`: the cells, or the error message.
fn ours(a: &Array, q: &Q) -> Result<Vec<Value>, String> {
    let out = Command::new(bin())
        .arg("export")
        .arg(&a.path)
        .args(q.args())
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    Ok(String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect())
}

/// Our aggregates of `q`: `tiledb-codec aggregate ARRAY EXPR... [--range
/// ..] [--where ..]`, printing one JSON object keyed by the expressions.
fn ours_aggregate(a: &Array, q: &Q) -> Result<Value, String> {
    let exprs: Vec<String> = q
        .aggregates
        .iter()
        .flatten()
        .map(|(op, f)| format!("{op}({})", f.as_deref().unwrap_or("*")))
        .collect();
    let out = Command::new(bin())
        .arg("aggregate")
        .arg(&a.path)
        .args(&exprs)
        .args(q.args())
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

/// Whether our cells are the engine's: in the same order, except for
/// unordered reads (a multiset) and arrays with duplicates (the
/// coordinates in the same order; equal coordinates in any order).
fn same_cells(a: &Array, q: &Q, ours: &[Value], engine: &[Value]) -> bool {
    if ours.len() != engine.len() {
        return false;
    }
    let all_same = |x: &[Value], y: &[Value]| x.iter().zip(y).all(|(p, q)| common::same(p, q));
    if q.order == Some("unordered") || a.dups {
        let x = common::sorted(ours.to_vec());
        let y = common::sorted(engine.to_vec());
        if !all_same(&x, &y) {
            return false;
        }
        if q.order == Some("unordered") {
            return true;
        }
        let coords = |c: &Value| {
            a.dims
                .iter()
                .map(|d| c[&d.name].clone())
                .collect::<Vec<_>>()
        };
        return ours
            .iter()
            .zip(engine)
            .all(|(p, e)| common::same(&json!(coords(p)), &json!(coords(e))));
    }
    all_same(ours, engine)
}

// ---------------------------------------------------------------------------
// Strategies

/// Candidate bounds of a dimension: its coordinates, their neighbours, the
/// domain's ends; sorted, distinct.
fn bound_pool(a: &Array, d: &Field) -> Vec<Value> {
    let mut pool = a.values(d);
    if d.is_int() {
        let (lo, hi) = d
            .domain
            .clone()
            .map(|(l, h)| (l.as_f64().unwrap(), h.as_f64().unwrap()))
            .unwrap_or((f64::MIN, f64::MAX));
        let extra: Vec<Value> = pool
            .iter()
            .filter_map(|v| v.as_i64())
            .flat_map(|v| [v - 1, v + 1])
            .filter(|v| (*v as f64) >= lo && (*v as f64) <= hi)
            .map(|v| json!(v))
            .collect();
        pool.extend(extra);
    } else if d.is_float() {
        pool.retain(|v| v.is_number());
        let vals: Vec<f64> = pool.iter().filter_map(|v| v.as_f64()).collect();
        // Midpoints, exact in float32 too (halves of nearby values).
        let mids: Vec<Value> = vals
            .windows(2)
            .map(|w| json!((w[0] as f32 / 2.0 + w[1] as f32 / 2.0) as f64))
            .collect();
        pool.extend(mids);
    } else if d.is_string() {
        let extra: Vec<Value> = pool
            .iter()
            .filter_map(|v| v.as_str())
            .filter_map(|s| s.char_indices().nth(1).map(|(i, _)| json!(&s[..i])))
            .collect();
        pool.extend(extra);
        pool.retain(|v| v.as_str().is_some_and(plain));
    }
    pool.sort_by(cmp_values);
    pool.dedup();
    pool
}

/// A string both TileDB-Py's condition parser and ours read back unchanged.
fn plain(s: &str) -> bool {
    !s.chars()
        .any(|c| c == '"' || c == '\'' || c == '\\' || c.is_control())
}

/// 1 to 3 sorted, disjoint ranges (a point when both ends are one value)
/// from `pool`.
fn multi_range(pool: Vec<Value>, max: usize) -> BoxedStrategy<Vec<(Value, Value)>> {
    let n = pool.len();
    prop::collection::btree_set(0..n, 1..=(2 * max).min(n).max(1))
        .prop_flat_map(move |picked| {
            let idx: Vec<usize> = picked.into_iter().collect();
            let pool = pool.clone();
            // Pair the picked positions; an odd one out is a point.
            (Just(idx), any::<bool>()).prop_map(move |(idx, point_first)| {
                let mut out = Vec::new();
                let mut i = 0;
                if point_first && idx.len() % 2 == 1 {
                    out.push((pool[idx[0]].clone(), pool[idx[0]].clone()));
                    i = 1;
                }
                while i + 1 < idx.len() {
                    out.push((pool[idx[i]].clone(), pool[idx[i + 1]].clone()));
                    i += 2;
                }
                if i < idx.len() {
                    out.push((pool[idx[i]].clone(), pool[idx[i]].clone()));
                }
                out
            })
        })
        .boxed()
}

/// Inclusive ranges on one dimension, by name.
type DimRanges = (String, Vec<(Value, Value)>);

/// Random ranges: on dense arrays every dimension (inside the non-empty
/// domain, which is what a dense read covers unless told), on sparse ones
/// some dimensions.
fn ranges(a: &Array) -> BoxedStrategy<Vec<DimRanges>> {
    let mut per_dim: Vec<BoxedStrategy<Option<DimRanges>>> = Vec::new();
    for d in &a.dims {
        let mut pool = bound_pool(a, d);
        if !a.sparse {
            let vals = a.values(d);
            let (lo, hi) = (vals.first().cloned(), vals.last().cloned());
            pool.retain(|v| {
                lo.as_ref().is_some_and(|l| cmp_values(v, l).is_ge())
                    && hi.as_ref().is_some_and(|h| cmp_values(v, h).is_le())
            });
        }
        if pool.is_empty() {
            per_dim.push(Just(None).boxed());
            continue;
        }
        let name = d.name.clone();
        let r = multi_range(pool, 3).prop_map(move |rs| Some((name.clone(), rs)));
        per_dim.push(if a.sparse {
            prop_oneof![1 => Just(None), 2 => r].boxed()
        } else {
            r.boxed()
        });
    }
    per_dim
        .prop_map(|v| v.into_iter().flatten().collect::<Vec<_>>())
        .boxed()
}

/// A literal of a field's value, as both condition parsers read it.
fn literal(f: &Field, v: &Value) -> Option<String> {
    match v {
        Value::String(s) if plain(s) && (f.is_string() || f.labels.is_some()) => {
            Some(format!("'{s}'"))
        }
        Value::Number(n) if f.is_float() => {
            let x = n.as_f64()?;
            x.is_finite().then(|| format!("{x:?}"))
        }
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

mod more;
#[allow(unused_imports)]
use more::*;
