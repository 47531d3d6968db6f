//! Our side of `bash bench/family.sh`: reads of the benchmark family's
//! sparse arrays through the `Array` facade, each timed in-process with
//! `std::time::Instant` around opening the array and reading every field
//! (as the engine's side is timed around `tiledb.open` + `A.query(...)[...]`);
//! the result is summed after the clock.
//!
//! `family_bench serve [HOST:PORT]`: reads one case per line on standard
//! input and answers each with one line,
//! `SECONDS CELLS SUMS CPU_SECONDS` (or `error: ...`), where SUMS is the
//! comma-separated sum of each field of the result, in the order the case
//! names them (CPU_SECONDS: every thread's CPU time in the timed part).
//! With `HOST:PORT` (built with the `object-store` feature), `s3://` URLs
//! are read from that S3 server, one storage per bucket kept from one case
//! to the next (made untimed, as the engine keeps its context).
//!
//! The case: `read ARRAY FIELDS [DIM=LO:HI ...] [-- CONDITION]`, FIELDS the
//! comma-separated fields to sum (every attribute is read, with the
//! coordinates); `DIM=LO:HI` ranges; `order=U` (unordered) or `order=C`
//! (row-major; the default); the condition in TileDB-Py's syntax.
//!
//! `cargo run --release --example family_bench -- serve < cases.txt`

use std::io::{BufRead, Write};
use std::time::Instant;

use tiledb_codec::raw::OpenOptionsExt as _;
use tiledb_codec::{Array, Batch, OpenOptions, Order};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// CPU time of this process's live threads, in seconds (0 where
/// `/proc/self/task` cannot be read).
fn cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    let mut ns = 0u64;
    for t in tasks.flatten() {
        if let Ok(s) = std::fs::read_to_string(t.path().join("schedstat")) {
            ns += s
                .split_whitespace()
                .next()
                .and_then(|x| x.parse::<u64>().ok())
                .unwrap_or(0);
        }
    }
    ns as f64 / 1e9
}

/// The sum of a column of the result, whatever its numeric type.
fn sum_of(batch: &Batch, name: &str) -> Res<f64> {
    if let Ok(v) = batch.column::<f64>(name) {
        return Ok(v.iter().sum());
    }
    if let Ok(v) = batch.column::<i64>(name) {
        return Ok(v.iter().map(|x| *x as f64).sum());
    }
    if let Ok(v) = batch.column::<i32>(name) {
        return Ok(v.iter().map(|x| f64::from(*x)).sum());
    }
    Err(format!("no FLOAT64, INT64 or INT32 column {name:?} in the result").into())
}

/// How an array is opened: a local path, or a storage of an S3 server.
struct Opener {
    #[cfg(feature = "object-store")]
    endpoint: Option<String>,
    #[cfg(feature = "object-store")]
    storages: std::collections::HashMap<
        String,
        std::sync::Arc<tiledb_codec::raw::storage::object::ObjectStorage>,
    >,
}

impl Opener {
    /// The options and path that open `path` (a local path or an `s3://`
    /// URL); the storage of a bucket is made on first use, untimed.
    fn prepare(&mut self, path: &str) -> Res<(OpenOptions, String)> {
        #[cfg(feature = "object-store")]
        if let (Some(endpoint), Some(after)) = (&self.endpoint, path.find("://")) {
            use tiledb_codec::raw::storage::object::ObjectStorage;
            let after = after + 3;
            let cut = path[after..].find('/').map_or(path.len(), |i| after + i);
            let (bucket, key) = path.split_at(cut);
            let storage = match self.storages.get(bucket) {
                Some(s) => s.clone(),
                None => {
                    let options = [
                        ("aws_endpoint", format!("http://{endpoint}")),
                        ("aws_allow_http", "true".into()),
                        ("aws_access_key_id", "test".into()),
                        ("aws_secret_access_key", "test".into()),
                        ("aws_region", "us-east-1".into()),
                    ];
                    let (s, _) = ObjectStorage::from_url(bucket, options)?;
                    self.storages.insert(bucket.to_string(), s.clone());
                    s
                }
            };
            let at = storage.path_of(key.trim_matches('/'));
            let at = at.to_str().ok_or("a path that is not UTF-8")?.to_string();
            return Ok((OpenOptions::new().with_storage(storage.into()), at));
        }
        Ok((OpenOptions::new(), path.to_string()))
    }
}

/// One case: (seconds, cells, the sums of the fields, CPU seconds).
fn run(opener: &mut Opener, words: &[&str]) -> Res<(f64, usize, Vec<f64>, f64)> {
    let ["read", path, fields, rest @ ..] = words else {
        return Err(format!("unknown case {words:?}").into());
    };
    let split = rest.iter().position(|w| *w == "--").unwrap_or(rest.len());
    let condition = rest.get(split + 1..).map(|c| c.join(" "));
    let mut ranges = Vec::new();
    let mut order = None;
    for w in &rest[..split] {
        if let Some(o) = w.strip_prefix("order=") {
            order = Some(match o {
                "U" => Order::Unordered,
                "C" => Order::RowMajor,
                _ => return Err(format!("order {o:?}: U or C").into()),
            });
            continue;
        }
        let (dim, r) = w.split_once('=').ok_or("a range is DIM=LO:HI")?;
        let (lo, hi) = r.split_once(':').ok_or("a range is DIM=LO:HI")?;
        ranges.push((dim.to_string(), lo.parse::<i64>()?..=hi.parse::<i64>()?));
    }
    let (options, at) = opener.prepare(path)?;
    let cpu = cpu_seconds();
    let t = Instant::now();
    let array = Array::open_with(&at, options)?;
    let mut reader = array.reader();
    for (dim, r) in &ranges {
        reader = reader.range(dim, r.clone());
    }
    if let Some(o) = order {
        reader = reader.order(o);
    }
    if let Some(c) = condition.filter(|c| !c.is_empty()) {
        reader = reader.condition(c.as_str());
    }
    let batch = reader.read()?;
    drop(array);
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    let sums = fields
        .split(',')
        .map(|f| sum_of(&batch, f))
        .collect::<Res<Vec<f64>>>()?;
    Ok((secs, batch.len(), sums, cpu))
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let endpoint = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["serve"] => None,
        ["serve", endpoint] => Some(endpoint.to_string()),
        _ => return Err("usage: family_bench serve [HOST:PORT]".into()),
    };
    #[cfg(not(feature = "object-store"))]
    if endpoint.is_some() {
        return Err("S3 reads need the object-store feature".into());
    }
    let mut opener = Opener {
        #[cfg(feature = "object-store")]
        endpoint,
        #[cfg(feature = "object-store")]
        storages: Default::default(),
    };
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let answer = match run(&mut opener, &words) {
            Ok((secs, cells, sums, cpu)) => {
                let sums: Vec<String> = sums.iter().map(|s| format!("{s:e}")).collect();
                format!("{secs:.6} {cells} {} {cpu:.6}", sums.join(","))
            }
            Err(e) => format!("error: {}", e.to_string().replace('\n', " ")),
        };
        let mut out = stdout.lock();
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}
