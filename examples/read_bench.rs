//! The library calls behind `bash bench/read.sh`, each timed in-process with
//! `std::time::Instant` (open + read + dropping the array or reader, as the
//! engine's side is timed around `with tiledb.open(...)` and the read
//! inside Python, its array closed by the `with`); the result is freed
//! after the clock on both sides.
//!
//! `read_bench serve`: reads one case per line on standard input and answers
//! each with one line, `SECONDS CELLS CHECKSUM CPU_SECONDS` (or `error: ...`;
//! CPU_SECONDS: every thread's CPU time in the timed part), so that
//! `bench/read_bench.py` can take turns with the engine while both sides
//! time themselves. The cases:
//!
//! - `read ARRAY ATTR [DIM=LO:HI ...]`: `ArrayReader::open` +
//!   `read(&Query::new().with_attributes([ATTR]).range(..))`; CHECKSUM: the sum of the
//!   attribute (FLOAT64).
//! - `coords ARRAY ATTR`: the same with the dimensions' columns too (the
//!   default of the facade); CHECKSUM: the attribute's sum plus the sum of
//!   each INT64 dimension.
//! - `into ARRAY ATTR`: `Array::open` + `read_into` a buffer of the
//!   caller's that the process keeps from one case to the next (made and
//!   written once, before the first timing).
//! - `cond ARRAY ATTR CONDITION`: the same with `Query::condition`.
//! - `sum ARRAY ATTR`: the sum aggregate over every cell.
//! - `open ARRAY`: `ArrayReader::open` and drop.
//! - `memcpy MIB`: copies a buffer of MIB MiB once (CELLS: the bytes).
//!
//! `read_bench peak ARRAY ATTR BUDGET_MIB BATCH_CELLS`: a fresh process's
//! streamed full read through `batches` with that memory budget, summing
//! the attribute; prints `VMHWM_BYTES CELLS SUM` (peak resident memory from
//! `/proc/self/status`).
//!
//! `cargo run --release --example read_bench -- serve < cases.txt`

use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use tiledb_codec::raw::read::aggregate::{aggregate, Aggregate, AggregateValue};
use tiledb_codec::raw::read::{ArrayReader, Query, QueryCondition};
use tiledb_codec::ReadOptions;

mod common;

use common::{sum_f64, Res};

thread_local! {
    /// The buffer of the `into` case, kept from one case to the next.
    static INTO: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// CPU seconds of the last timed part (all threads), as f64 bits.
static CPU: AtomicU64 = AtomicU64::new(0);

/// The clock of a case: wall time, and the process's CPU time (every
/// thread's, from `/proc/self/task/*/schedstat`, where there is one).
struct Clock {
    wall: Instant,
    cpu: f64,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            cpu: cpu_seconds(),
            wall: Instant::now(),
        }
    }

    /// Seconds since the start; the CPU seconds are kept for the answer.
    fn secs(&self) -> f64 {
        let secs = self.wall.elapsed().as_secs_f64();
        CPU.store((cpu_seconds() - self.cpu).to_bits(), Ordering::Relaxed);
        secs
    }
}

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

fn open(path: &str) -> Res<ArrayReader> {
    Ok(ArrayReader::open(Path::new(path), &ReadOptions::default())?)
}

fn attrs(attr: &str) -> Option<Vec<String>> {
    Some(vec![attr.to_string()])
}

/// One case: (seconds, cells, checksum).
fn run(words: &[&str]) -> Res<(f64, u64, f64)> {
    match words {
        ["read", path, attr, ranges @ ..] => {
            let t = Clock::start();
            let reader = open(path)?;
            // A dense read returns the attribute alone, as the engine's does.
            let ranges = ranges
                .iter()
                .map(|r| r.split_once('=').ok_or("a range is DIM=LO:HI"))
                .collect::<Result<Vec<_>, _>>()?;
            let q = common::attribute_query(&reader, attr, ranges)?;
            let cells = reader.read(&q)?;
            // Closed inside the clock, as the engine's `with` block closes
            // its array inside its clock; the result is freed after it.
            drop(reader);
            let secs = t.secs();
            Ok((secs, cells.len as u64, sum_f64(&cells, attr)?))
        }
        ["coords", path, attr] => {
            let t = Clock::start();
            let reader = open(path)?;
            let mut q = Query::new();
            q.attributes = attrs(attr);
            let cells = reader.read(&q)?;
            let dims: Vec<String> = reader
                .schema
                .domain
                .dimensions
                .iter()
                .map(|f| String::from_utf8_lossy(&f.name).into_owned())
                .collect();
            drop(reader);
            let secs = t.secs();
            let mut check = sum_f64(&cells, attr)?;
            for name in &dims {
                let col = cells
                    .column(name)
                    .ok_or_else(|| format!("no column {name:?} in the result"))?;
                for c in col.data().chunks_exact(8) {
                    check += i64::from_le_bytes(c.try_into()?) as f64;
                }
            }
            Ok((secs, cells.len as u64, check))
        }
        ["into", path, attr] => INTO.with(|buf| {
            let mut buf = buf.borrow_mut();
            if buf.is_empty() {
                // The caller's buffer: sized and written before timing.
                let mut q = Query::new().with_coordinates(false);
                q.attributes = attrs(attr);
                *buf = vec![1.0; open(path)?.read(&q)?.len];
            }
            let t = Clock::start();
            let array = tiledb_codec::Array::open(path)?;
            let got = array
                .reader()
                .read_into(&mut [tiledb_codec::Target::new(*attr, &mut buf[..])])?;
            drop(array);
            let secs = t.secs();
            Ok((secs, got as u64, buf[..got].iter().sum()))
        }),
        ["cond", path, attr, condition @ ..] => {
            let text = condition.join(" ");
            let t = Clock::start();
            let reader = open(path)?;
            let q = common::attribute_query(&reader, attr, [])?
                .with_condition(QueryCondition::parse(&text)?);
            let cells = reader.read(&q)?;
            drop(reader);
            let secs = t.secs();
            Ok((secs, cells.len as u64, sum_f64(&cells, attr)?))
        }
        ["sum", path, attr] => {
            let t = Clock::start();
            let reader = open(path)?;
            let aggs = [
                Aggregate::parse(&format!("sum({attr})"))?,
                Aggregate::parse("count(*)")?,
            ];
            let out = aggregate(&reader, &Query::new(), &aggs)?;
            drop(reader);
            let secs = t.secs();
            let sum = match out.first() {
                Some(AggregateValue::Float(v)) => *v,
                Some(AggregateValue::Int(v)) => *v as f64,
                Some(AggregateValue::Uint(v)) => *v as f64,
                other => return Err(format!("sum({attr}) gave {other:?}").into()),
            };
            let cells = match out.get(1) {
                Some(AggregateValue::Uint(n)) => *n,
                other => return Err(format!("count(*) gave {other:?}").into()),
            };
            Ok((secs, cells, sum))
        }
        ["open", path] => {
            let t = Clock::start();
            let reader = open(path)?;
            let n = reader.fragments.len() as u64;
            drop(reader);
            Ok((t.secs(), n, 0.0))
        }
        ["memcpy", mib] => {
            let bytes = mib.parse::<usize>()? << 20;
            // Both buffers written first, so that the copy does not time
            // the kernel handing out fresh pages.
            let src: Vec<u8> = (0..bytes).map(|i| i as u8).collect();
            let mut dst = vec![1u8; bytes];
            let t = Clock::start();
            dst.copy_from_slice(&src);
            let secs = t.secs();
            let check = f64::from(dst[bytes / 2]) + f64::from(dst[bytes - 1]);
            Ok((secs, bytes as u64, check))
        }
        _ => Err(format!("unknown case {words:?}").into()),
    }
}

/// Peak resident memory of this process (`VmHWM`), in bytes.
fn vm_hwm() -> Res<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .ok_or("no VmHWM in /proc/self/status")?;
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()?;
    Ok(kib * 1024)
}

fn peak(path: &str, attr: &str, budget_mib: u64, batch_cells: usize) -> Res<()> {
    let reader = open(path)?;
    let mut q = Query::new()
        .with_coordinates(false)
        .with_memory_budget(budget_mib << 20)
        .with_batch_cells(batch_cells);
    q.attributes = attrs(attr);
    let (mut cells, mut sum) = (0u64, 0.0);
    for batch in reader.batches(&q)? {
        let batch = batch?;
        cells += batch.len as u64;
        sum += sum_f64(&batch, attr)?;
    }
    println!("{} {cells} {sum}", vm_hwm()?);
    Ok(())
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["serve"] => {
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout();
            for line in stdin.lock().lines() {
                let line = line?;
                let words: Vec<&str> = line.split_whitespace().collect();
                if words.is_empty() {
                    continue;
                }
                match run(&words) {
                    Ok((secs, cells, check)) => {
                        let cpu = f64::from_bits(CPU.load(Ordering::Relaxed));
                        writeln!(stdout, "{secs:.6} {cells} {check} {cpu:.6}")?
                    }
                    Err(e) => writeln!(stdout, "error: {}", e.to_string().replace('\n', " "))?,
                }
                stdout.flush()?;
            }
            Ok(())
        }
        ["peak", path, attr, budget, batch] => peak(path, attr, budget.parse()?, batch.parse()?),
        _ => Err(
            "usage: read_bench serve | read_bench peak ARRAY ATTR BUDGET_MIB BATCH_CELLS".into(),
        ),
    }
}
