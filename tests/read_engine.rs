//! The cells the reader returns for every fixture equal the TileDB engine's
//! own read of the array (TileDB-Py, run here): dense arrays over their
//! non-empty domain in row-major order, sparse arrays as a multiset.

mod common;

use serde_json::Value;
use tiledb_codec::filters::ReadOptions;
use tiledb_codec::read::{ArrayReader, Query};

fn engine_cells(f: &common::Fixture) -> Vec<Value> {
    let mut cmd = std::process::Command::new(common::engine_python());
    cmd.arg(common::root().join("tests/engine/engine_account.py"))
        .arg(&f.path)
        .arg("--cells");
    if let Some(k) = &f.key {
        cmd.arg("--key").arg(k);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        f.id,
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["cells"].as_array().cloned().unwrap_or_default()
}

/// JSON equality where 3 and 3.0 are one number and a one-element list is
/// its element. TileDB-Py strips trailing NUL bytes from string cells (the
/// default fill of a var-sized string attribute is one NUL byte, which it
/// shows as ""); we export the bytes as stored, so ours are compared
/// without trailing NULs.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x == y || x.trim_end_matches('\0') == y,
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Array(x), y) if x.len() == 1 => same(&x[0], y),
        (x, Value::Array(y)) if y.len() == 1 => same(x, &y[0]),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn sorted(mut v: Vec<Value>) -> Vec<Value> {
    v.sort_by_key(|x| x.to_string());
    v
}

#[test]
fn every_fixture_reads_the_engine_cells() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let mut opts = ReadOptions::default();
        if let Some(k) = &f.key {
            opts = opts.with_key(k.as_bytes().try_into().unwrap());
        }
        let ours = match ArrayReader::open(&f.path, &opts)
            .and_then(|r| r.read(&Query::default()).map(|c| (r, c)))
        {
            Ok((_, cells)) => (0..cells.len).map(|i| cells.row(i)).collect::<Vec<_>>(),
            Err(e) => {
                failures.push(format!("{}: {e}", f.id));
                continue;
            }
        };
        let engine = engine_cells(&f);
        checked += 1;
        let (a, b) = (sorted(ours), sorted(engine));
        if a.len() != b.len() {
            failures.push(format!(
                "{}: {} cells, the engine read {}",
                f.id,
                a.len(),
                b.len()
            ));
            continue;
        }
        if let Some((x, y)) = a.iter().zip(&b).find(|(x, y)| !same(x, y)) {
            failures.push(format!("{}: ours {x} engine {y}", f.id));
        }
    }
    assert!(checked > 20);
    assert!(
        failures.is_empty(),
        "{} of {checked} fixtures differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
