//! Our side of `bash bench/s3.sh`: reads from an S3 server (moto), each
//! timed in-process with `std::time::Instant` around opening the array and
//! reading (as the engine's side is timed around `tiledb.open` + the read
//! inside Python). As the engine's side keeps one context (and its VFS)
//! for every read, this side keeps one `ObjectStorage` per bucket: a read
//! lists the array afresh and fetches the metadata and small tiles it has
//! not fetched before (`FetchOptions::metadata_cache`, `tile_cache`), as
//! the engine's VFS keeps its small reads.
//!
//! `s3_bench serve HOST:PORT`: reads one case per line on standard input
//! and answers each with one line, `SECONDS CELLS CHECKSUM GETS` (or
//! `error: ...`). The case:
//!
//! - `read URL ATTR [gap=MIB] [max=MIB] [conc=N] [ahead=MIB] [tiles=MIB] [cold] [DIM=LO:HI ...]`:
//!   `ObjectStorage::from_url` (the server's endpoint, dummy keys; made
//!   at the first read of a bucket, untimed; with `cold`, a new one for
//!   this read, untimed, nothing kept from earlier reads) with those [`FetchOptions`]
//!   (the defaults where not given),
//!   `ArrayReader::open_in` + `read(&Query { attributes: [ATTR], ranges })`
//!   (a dense read without coordinates, as the engine's `A[:]`); CHECKSUM:
//!   the sum of the attribute (FLOAT64); GETS: the GET requests of this
//!   read counted by `ObjectStats`.
//!
//! `cargo run --release --example s3_bench -- serve 127.0.0.1:5000 < cases.txt`

use std::io::{BufRead, Write};
use std::time::Instant;

use tiledb_codec::raw::read::ArrayReader;
use tiledb_codec::raw::storage::object::{FetchOptions, ObjectStorage};
use tiledb_codec::ReadOptions;

mod common;

use common::{sum_f64, Res};

fn mib(v: &str) -> Res<u64> {
    Ok((v.parse::<f64>()? * (1u64 << 20) as f64) as u64)
}

/// The storages made so far, by bucket URL.
type Storages = std::collections::HashMap<String, std::sync::Arc<ObjectStorage>>;

/// One case: (seconds, cells, checksum, GETs).
fn run(endpoint: &str, storages: &mut Storages, words: &[&str]) -> Res<(f64, u64, f64, u64)> {
    let ["read", url, attr, rest @ ..] = words else {
        return Err(format!("unknown case {words:?}").into());
    };
    let mut fetch = FetchOptions::default();
    let mut ranges = Vec::new();
    for w in rest {
        match w.split_once('=') {
            Some(("gap", v)) => fetch.coalesce_gap = mib(v)?,
            Some(("max", v)) => fetch.max_request = mib(v)?,
            Some(("conc", v)) => fetch.concurrency = v.parse()?,
            Some(("ahead", v)) => fetch.read_ahead = mib(v)?,
            Some(("tiles", v)) => fetch.tile_cache = mib(v)?,
            Some((dim, v)) => ranges.push((dim.to_string(), v.to_string())),
            None if *w == "cold" => {}
            None => return Err(format!("not KEY=VALUE: {w}").into()),
        }
    }
    let options = [
        ("aws_endpoint", format!("http://{endpoint}")),
        ("aws_allow_http", "true".into()),
        ("aws_access_key_id", "test".into()),
        ("aws_secret_access_key", "test".into()),
        ("aws_region", "us-east-1".into()),
    ];
    // `s3://bucket/key...`: the bucket's URL and the key.
    let after = url.find("://").ok_or("not a URL")? + 3;
    let (bucket, key) = url.split_at(url[after..].find('/').map_or(url.len(), |i| after + i));
    let bucket = bucket.to_string();
    // `cold`: a storage of its own for this read (made untimed), as a new
    // process would read.
    let cold = rest.contains(&"cold");
    let storage = match storages.get(&bucket).filter(|_| !cold) {
        Some(s) => s.clone(),
        None if cold => ObjectStorage::from_url(&bucket, options)?.0,
        None => {
            let (s, _) = ObjectStorage::from_url(&bucket, options)?;
            storages.insert(bucket.clone(), s.clone());
            s
        }
    };
    let path = storage.path_of(key.trim_matches('/'));
    storage.set_fetch_options(fetch);
    let gets_before = storage.stats().snapshot().gets;
    let t = Instant::now();
    let reader =
        ArrayReader::open_in(storage.clone().into(), &path, None, &ReadOptions::default())?;
    let q = common::attribute_query(
        &reader,
        attr,
        ranges.iter().map(|(d, t)| (d.as_str(), t.as_str())),
    )?;
    let cells = reader.read(&q)?;
    let secs = t.elapsed().as_secs_f64();
    let sum = sum_f64(&cells, attr)?;
    let gets = storage.stats().snapshot().gets - gets_before;
    Ok((secs, cells.len as u64, sum, gets))
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ["serve", endpoint] = args.iter().map(String::as_str).collect::<Vec<_>>()[..] else {
        return Err("usage: s3_bench serve HOST:PORT".into());
    };
    let stdout = std::io::stdout();
    let mut storages = Storages::new();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match run(endpoint, &mut storages, &words) {
            Ok((secs, cells, check, gets)) => format!("{secs} {cells} {check} {gets}"),
            Err(e) => format!("error: {e}"),
        };
        let mut out = stdout.lock();
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}
